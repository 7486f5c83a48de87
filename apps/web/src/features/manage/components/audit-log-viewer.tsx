import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { listAuditLogs, type AuditLogEntry } from '../api/operator-api';
import { formatTime } from '../model/format';
import { auditQueryOf, type AuditFilterInput } from '../model/operator-session';
import { useOperatorFailure } from './use-operator-failure';

const PAGE_SIZE = 20;

/** The audit log, newest first, filtered by actor, action (or its prefix) and a date range. */
export function AuditLogViewer() {
  const { t, i18n } = useTranslation();
  const fail = useOperatorFailure();
  const [draft, setDraft] = useState<AuditFilterInput>({});
  const [applied, setApplied] = useState<AuditFilterInput>({});
  const [page, setPage] = useState(1);
  // Remounts the range picker on reset (it keeps its own value).
  const [rangeKey, setRangeKey] = useState(0);

  const logs = useQuery({
    queryKey: ['manage', 'audit', applied, page],
    queryFn: () => listAuditLogs(auditQueryOf(applied, page, PAGE_SIZE)),
  });
  useEffect(() => {
    if (logs.error) fail(logs.error);
  }, [logs.error, fail]);

  const lang = i18n.language;
  const columns: ColumnsType<AuditLogEntry> = [
    { title: t('manage.at'), dataIndex: 'at', render: (v: string) => formatTime(v, lang), width: 170 },
    {
      title: t('manage.actor'),
      key: 'actor',
      render: (_, r) => (
        <>
          <Tag>{t(`manage.actor_${r.actorType}`)}</Tag>
          <span>{r.actorName ?? r.actorId ?? '-'}</span>
          {r.actorName && r.actorId ? (
            <div>
              <Typography.Text type="secondary">{r.actorId}</Typography.Text>
            </div>
          ) : null}
        </>
      ),
    },
    {
      title: t('manage.action'),
      dataIndex: 'action',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('manage.target'),
      key: 'target',
      render: (_, r) =>
        r.targetId ? (
          <>
            <div>{r.targetType}</div>
            <Typography.Text type="secondary">{r.targetId}</Typography.Text>
          </>
        ) : (
          '-'
        ),
    },
    { title: t('manage.organisation'), dataIndex: 'organizationId', render: (v: string | null) => v ?? '-' },
    { title: t('manage.ip'), dataIndex: 'ip', render: (v: string | null) => v ?? '-' },
    {
      title: t('manage.userAgent'),
      dataIndex: 'userAgent',
      ellipsis: true,
      width: 240,
      render: (v: string | null) => <span title={v ?? ''}>{v ?? '-'}</span>,
    },
  ];

  const search = () => {
    setApplied({ ...draft });
    setPage(1);
  };

  return (
    <div data-testid="manage-audit">
      <Space wrap style={{ marginBottom: 16 }}>
        <Input
          data-testid="manage-audit-actor"
          placeholder={t('manage.actorPlaceholder')}
          value={draft.actor ?? ''}
          allowClear
          onChange={(e) => setDraft((d) => ({ ...d, actor: e.target.value }))}
          onPressEnter={search}
          style={{ width: 200 }}
        />
        <Input
          data-testid="manage-audit-action"
          placeholder={t('manage.actionPlaceholder')}
          value={draft.action ?? ''}
          allowClear
          onChange={(e) => setDraft((d) => ({ ...d, action: e.target.value }))}
          onPressEnter={search}
          style={{ width: 220 }}
        />
        <DatePicker.RangePicker
          key={rangeKey}
          data-testid="manage-audit-range"
          onChange={(_, days) =>
            setDraft((d) => ({ ...d, fromDay: days[0] || undefined, toDay: days[1] || undefined }))
          }
        />
        <Button type="primary" data-testid="manage-audit-search" onClick={search}>
          {t('manage.search')}
        </Button>
        <Button
          data-testid="manage-audit-reset"
          onClick={() => {
            setDraft({});
            setApplied({});
            setPage(1);
            setRangeKey((k) => k + 1);
          }}
        >
          {t('manage.reset')}
        </Button>
      </Space>
      <Table<AuditLogEntry>
        data-testid="manage-audit-table"
        rowKey="id"
        columns={columns}
        dataSource={logs.data?.list ?? []}
        loading={logs.isPending}
        scroll={{ x: 'max-content' }}
        onRow={(r) =>
          ({
            'data-testid': 'manage-audit-row',
            'data-id': String(r.id),
            'data-action': r.action,
            'data-target': r.targetId ?? '',
          }) as HTMLAttributes<HTMLElement>
        }
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: logs.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
          showTotal: (n) => t('manage.total', { count: n }),
        }}
      />
    </div>
  );
}
