import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Modal, Popconfirm, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import {
  approve,
  listQueue,
  materialUrl,
  reject,
  type ReviewQueueName,
  type ReviewQueueStatus,
} from '../api/operator-api';
import { formatTime } from '../model/format';
import { applicationIdOfRow } from '../model/seal-queue';
import { SealRowDetail, sealColumns } from './seal-queue-columns';
import { useOperatorFailure } from './use-operator-failure';

type Row = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

/** The id a decision names (see applicationIdOfRow). */
export function applicationIdOf(queue: ReviewQueueName, row: Row): string {
  return applicationIdOfRow(queue, row);
}

/** The status a row is in, and the reason it was turned down (each queue names them its own way). */
function statusOf(queue: ReviewQueueName, row: Row): { status: string; why: string } {
  if (queue === 'authority') return { status: str(row.applyStatus), why: str(row.rejectReason) };
  if (queue === 'realname') return { status: str(row.status), why: str(row.reason) };
  return { status: str(row.status), why: str(row.rejectReason) };
}

function roleNames(v: unknown): string {
  if (!Array.isArray(v)) return '';
  return v
    .map((r: unknown) => {
      if (typeof r === 'string') return r;
      if (r && typeof r === 'object') {
        const o = r as Record<string, unknown>;
        return str(o.name ?? o.roleName ?? o.code);
      }
      return '';
    })
    .filter(Boolean)
    .join('、');
}

const PAGE_SIZE = 10;

/**
 * One review queue: pending applications with approve and reject (a reason is required), and the decided
 * ones for reference. Rows carry `data-id` (the application id) for tests and deep links.
 */
export function ReviewQueue({ queue }: { queue: ReviewQueueName }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const fail = useOperatorFailure();
  const client = useQueryClient();
  const [status, setStatus] = useState<ReviewQueueStatus>('pending');
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState('');

  const list = useQuery({
    queryKey: ['manage', 'queue', queue, status, page],
    queryFn: () => listQueue(queue, { status, page, size: PAGE_SIZE }),
  });
  useEffect(() => {
    if (list.error) fail(list.error);
  }, [list.error, fail]);

  const done = (text: string) => {
    void message.success(text);
    void client.invalidateQueries({ queryKey: ['manage'] });
  };
  const approveOne = useMutation({
    mutationFn: (id: string) => approve(queue, id),
    onSuccess: () => done(t('manage.approved')),
    onError: fail,
  });
  const rejectOne = useMutation({
    mutationFn: (v: { id: string; reason: string }) => reject(queue, v.id, v.reason),
    onSuccess: () => {
      setRejecting(null);
      setReason('');
      done(t('manage.rejected'));
    },
    onError: fail,
  });

  const lang = i18n.language;
  const common: ColumnsType<Row> =
    queue === 'sealApply' || queue === 'sealChange'
      ? sealColumns(queue, t, lang)
      : queue === 'realname'
        ? [
            { title: t('manage.orgName'), dataIndex: 'orgName', render: (v) => str(v) },
            { title: t('manage.uscc'), dataIndex: 'uscc', render: (v) => str(v) },
            {
              title: t('manage.legal'),
              key: 'legal',
              render: (_, r) => (
                <>
                  <div>{str(r.legalName)}</div>
                  <Typography.Text type="secondary">{str(r.legalIdNumber)}</Typography.Text>
                </>
              ),
            },
            {
              title: t('manage.applicant'),
              dataIndex: 'applicantPersonId',
              render: (v) => <Typography.Text code>{str(v)}</Typography.Text>,
            },
            {
              title: t('manage.submittedAt'),
              dataIndex: 'createdAt',
              render: (v) => formatTime(str(v), lang),
            },
            {
              title: t('manage.materials'),
              key: 'materials',
              render: (_, r) => (
                <Space orientation="vertical" size={2}>
                  <span data-testid="manage-material-licence" title={str(r.licenceFileKey)}>
                    {t('manage.licence')}: <MaterialLink fileKey={str(r.licenceFileKey)} />
                  </span>
                  <span data-testid="manage-material-authorisation" title={str(r.authorisationFileKey)}>
                    {t('manage.authorisation')}: <MaterialLink fileKey={str(r.authorisationFileKey)} />
                  </span>
                </Space>
              ),
            },
          ]
        : [
            { title: t('manage.applyNo'), dataIndex: 'applyNo', render: (v) => str(v) },
            { title: t('manage.orgName'), dataIndex: 'orgName', render: (v) => str(v) },
            { title: t('manage.uscc'), dataIndex: 'orgUscc', render: (v) => str(v) },
            {
              title: t('manage.applicant'),
              key: 'applier',
              render: (_, r) => (
                <>
                  <div>{str(r.applierName)}</div>
                  <Typography.Text type="secondary">{str(r.applierPhone)}</Typography.Text>
                </>
              ),
            },
            { title: t('manage.roles'), dataIndex: 'roles', render: (v) => roleNames(v) },
            {
              title: t('manage.submittedAt'),
              dataIndex: 'createTime',
              render: (v) => formatTime(str(v), lang),
            },
            {
              title: t('manage.materials'),
              dataIndex: 'applyFileKey',
              render: (v) => (
                <span data-testid="manage-material-apply" title={str(v)}>
                  <MaterialLink fileKey={str(v)} />
                </span>
              ),
            },
            { title: t('manage.remark'), dataIndex: 'remark', render: (v) => str(v) },
          ];

  const columns: ColumnsType<Row> = [
    ...common,
    {
      title: t('manage.status'),
      key: 'status',
      render: (_, r) => {
        const { status: s, why } = statusOf(queue, r);
        return (
          <span data-testid="manage-row-status" data-status={s}>
            <Tag>{str(r.statusText) || t(`manage.status_${s}`, { defaultValue: s })}</Tag>
            {why ? <div>{t('manage.reasonIs', { reason: why })}</div> : null}
          </span>
        );
      },
    },
    {
      title: t('manage.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) => {
        if (status !== 'pending') return null;
        const id = applicationIdOf(queue, r);
        return (
          <Space>
            <Popconfirm
              title={t('manage.approveConfirm')}
              okText={t('manage.approve')}
              cancelText={t('manage.cancel')}
              okButtonProps={{ 'data-testid': 'manage-approve-confirm' }}
              onConfirm={() => approveOne.mutate(id)}
            >
              <Button type="primary" size="small" data-testid="manage-approve" data-id={id}>
                {t('manage.approve')}
              </Button>
            </Popconfirm>
            <Button
              danger
              size="small"
              data-testid="manage-reject"
              data-id={id}
              onClick={() => {
                setReason('');
                setRejecting(id);
              }}
            >
              {t('manage.reject')}
            </Button>
          </Space>
        );
      },
    },
  ];

  const trimmed = reason.trim();
  return (
    <div data-testid={`manage-queue-${queue}`}>
      <Space style={{ marginBottom: 16 }}>
        <Segmented<ReviewQueueStatus>
          data-testid="manage-queue-status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={(['pending', 'approved', 'rejected', 'all'] as const).map((s) => ({
            value: s,
            label: <span data-testid={`manage-queue-status-${s}`}>{t(`manage.filter_${s}`)}</span>,
          }))}
        />
        <Button data-testid="manage-queue-refresh" onClick={() => void list.refetch()}>
          {t('manage.refresh')}
        </Button>
      </Space>
      <Table<Row>
        rowKey={(r) => applicationIdOf(queue, r)}
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isPending}
        scroll={{ x: 'max-content' }}
        expandable={
          queue === 'sealApply' || queue === 'sealChange'
            ? { expandedRowRender: (r) => <SealRowDetail queue={queue} row={r} /> }
            : undefined
        }
        onRow={(r) =>
          ({
            'data-testid': 'manage-queue-row',
            'data-id': applicationIdOf(queue, r),
          }) as HTMLAttributes<HTMLElement>
        }
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
          showTotal: (n) => t('manage.total', { count: n }),
        }}
      />
      <Modal
        open={rejecting !== null}
        title={t('manage.rejectTitle')}
        okText={t('manage.reject')}
        cancelText={t('manage.cancel')}
        okButtonProps={{ danger: true, disabled: !trimmed, 'data-testid': 'manage-reject-confirm' }}
        cancelButtonProps={{ 'data-testid': 'manage-reject-cancel' }}
        confirmLoading={rejectOne.isPending}
        onCancel={() => setRejecting(null)}
        onOk={() => {
          if (rejecting && trimmed) rejectOne.mutate({ id: rejecting, reason: trimmed });
        }}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('manage.rejectText')}</Typography.Paragraph>
        <Input.TextArea
          data-testid="manage-reject-reason"
          value={reason}
          maxLength={500}
          showCount
          rows={4}
          placeholder={t('manage.reasonPlaceholder')}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
    </div>
  );
}

/** Opens an applicant's material in a new tab through a short-lived address (the opening is audited). */
function MaterialLink({ fileKey }: { fileKey: string }) {
  const { t } = useTranslation();
  const onFailure = useOperatorFailure();
  if (!fileKey) return <>-</>;
  const open = async () => {
    // Open the tab first: browsers block a window opened after an await.
    const tab = window.open('about:blank', '_blank');
    try {
      const { url } = await materialUrl(fileKey);
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (e) {
      tab?.close();
      onFailure(e);
    }
  };
  return (
    <Button
      type="link"
      size="small"
      onClick={() => void open()}
      data-testid="manage-material-open"
      data-file-key={fileKey}
    >
      {t('manage.openMaterial')}
    </Button>
  );
}
