import { contracts } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { WarningDialog } from '../../../components/warning-dialog';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { cancelSealChange, useSealChanges, type SealChange } from '../api/changes';
import { useSealPoints } from '../api/manage';
import { SEALS_KEY } from '../api/seals';
import { StatusTag } from '../components/status-tag';
import {
  canCancelChange,
  CHANGE_PAGE_SIZE,
  changeFiltersFromQuery,
  changeFiltersToQuery,
  changeListRequest,
  type ChangeListFilters,
} from '../model/change-records';
import { formatDateTime } from '../model/manage-seals';

const detailPath = (changeNo: string) =>
  `/sealService/changeRecodeDetail?changeNo=${encodeURIComponent(changeNo)}`;

/** /sealService/changeRecode: the space's seal changes, filtered, with cancelling a pending one. */
export function ChangeRecordPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => changeFiltersFromQuery(params), [params]);
  const list = useSealChanges(changeListRequest(filters));
  const points = useSealPoints();
  const canManage = (points.data?.points ?? []).includes('seal.manage');
  const [sealCode, setSealCode] = useState(filters.sealCode ?? '');
  const [cancelling, setCancelling] = useState<SealChange | null>(null);
  const [busy, setBusy] = useState(false);

  const setFilters = (next: ChangeListFilters) => setParams(changeFiltersToQuery(next), { replace: true });

  const cancel = async () => {
    if (!cancelling) return;
    setBusy(true);
    try {
      await cancelSealChange(cancelling.changeNo);
      toastSuccess(t('sealChange.cancel.success'));
      setCancelling(null);
      await queryClient.invalidateQueries({ queryKey: SEALS_KEY });
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const columns: ColumnsType<SealChange> = [
    {
      title: t('sealChange.list.changeNo'),
      dataIndex: 'changeNo',
      key: 'changeNo',
      render: (v: string) => (
        <Link to={detailPath(v)} data-testid="change-no" style={{ whiteSpace: 'nowrap' }}>
          {v}
        </Link>
      ),
    },
    {
      title: t('sealChange.list.seal'),
      key: 'seal',
      render: (_, c) => (
        <div style={{ minWidth: 180 }}>
          <div data-testid="change-seal-name">{c.before.name}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {c.sealCode}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('sealChange.list.changeType'),
      dataIndex: 'changeType',
      key: 'changeType',
      render: (v: SealChange['changeType']) => (
        <Tag style={{ marginInlineEnd: 0 }}>{t(`sealChange.type.${v}`)}</Tag>
      ),
    },
    {
      title: t('sealChange.list.status'),
      dataIndex: 'status',
      key: 'status',
      render: (v: string) => <StatusTag set="changeStatus" value={v} />,
    },
    {
      title: t('sealChange.list.applicantTime'),
      key: 'applicant',
      render: (_, c) => (
        <div style={{ whiteSpace: 'nowrap' }}>
          <div>{c.applicantName ?? '—'}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatDateTime(c.createTime)}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('sealChange.list.actions'),
      key: 'actions',
      width: 110,
      render: (_, c) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            data-testid="change-detail-open"
            onClick={() => void navigate(detailPath(c.changeNo))}
          >
            {t('sealChange.list.detail')}
          </Button>
          {canManage && canCancelChange(c) ? (
            <Button
              type="link"
              size="small"
              danger
              data-testid="change-cancel"
              onClick={() => setCancelling(c)}
            >
              {t('sealChange.list.cancel')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <div className="os-page" data-testid="change-record-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/sealService/mySealList" />
      <div className="os-card">
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginBottom: 16 }}>
          <Select<string>
            style={{ width: 180 }}
            value={filters.status ?? ''}
            data-testid="change-filter-status"
            prefix={<span style={{ color: 'var(--os-text-2)' }}>{t('sealChange.list.filterStatus')}</span>}
            options={[
              { value: '', label: t('sealChange.list.all') },
              ...contracts.CHANGE_STATUSES.map((v) => ({
                value: v,
                label: t(`sealCommon.changeStatus.${v}`),
              })),
            ]}
            onChange={(v) =>
              setFilters({
                ...filters,
                status: (v || undefined) as ChangeListFilters['status'],
                pageNum: 1,
              })
            }
          />
          <Input.Search
            allowClear
            style={{ width: 280 }}
            value={sealCode}
            maxLength={64}
            placeholder={t('sealChange.list.filterSeal')}
            data-testid="change-filter-seal"
            onChange={(e) => setSealCode(e.target.value)}
            onSearch={(v) => setFilters({ ...filters, sealCode: v.trim() || undefined, pageNum: 1 })}
          />
          <Button
            data-testid="change-filter-reset"
            disabled={!filters.status && !filters.sealCode}
            onClick={() => {
              setSealCode('');
              setFilters({ pageNum: 1 });
            }}
          >
            {t('sealChange.list.reset')}
          </Button>
        </div>
        <Table<SealChange>
          rowKey="changeNo"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching}
          data-testid="change-table"
          scroll={{ x: 'max-content' }}
          onRow={(c) =>
            ({
              'data-testid': 'change-row',
              'data-id': c.changeNo,
              'data-seal-code': c.sealCode,
              'data-status': c.status,
            }) as HTMLAttributes<HTMLElement>
          }
          locale={{ emptyText: <Empty description={t('sealChange.list.empty')} /> }}
          pagination={{
            current: filters.pageNum,
            pageSize: CHANGE_PAGE_SIZE,
            total: list.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('sealChange.list.total', { count: total }),
            onChange: (pageNum) => setFilters({ ...filters, pageNum }),
          }}
        />
      </div>
      <WarningDialog
        open={cancelling !== null}
        danger
        title={t('sealChange.cancel.title')}
        content={t('sealChange.cancel.content')}
        confirmLoading={busy}
        onConfirm={() => void cancel()}
        onCancel={() => setCancelling(null)}
        testId="change-cancel-confirm"
      />
    </div>
  );
}
