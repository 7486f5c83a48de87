import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Space, Table, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AppDialog } from '../../../components/app-dialog';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { WarningDialog } from '../../../components/warning-dialog';
import { useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess, toastWarning } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import {
  approveAuthority,
  fileUrl,
  MEMBERS_KEY,
  rejectAuthority,
  useAuthorityRecords,
  usePermissions,
  withdrawAuthority,
  type AuthorityRecord,
  type AuthorityScope,
  type AuthorityStatus,
} from '../api/members';
import { OrgOnlyNotice } from '../components/org-only';
import { STATUS_COLOUR } from '../model/roles';

const PAGE_SIZE = 10;
type Pending = { kind: 'approve' | 'withdraw'; record: AuthorityRecord } | null;

/**
 * /userCenter/applyAuthorityRecord: one's own applications (status, reject reason, withdraw) and, for
 * reviewers, the organisation's applications to approve or reject.
 */
export function ApplyAuthorityRecordPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  const permissions = usePermissions();
  const canReview = (permissions.data?.points ?? []).includes('authority.review');
  const [scope, setScope] = useState<AuthorityScope>('mine');
  const [applyStatus, setApplyStatus] = useState<AuthorityStatus | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const records = useAuthorityRecords(scope, { applyStatus, pageNum, pageSize: PAGE_SIZE }, inOrg);
  const [pending, setPending] = useState<Pending>(null);
  const [rejecting, setRejecting] = useState<AuthorityRecord | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  if (!account.data || (inOrg && permissions.isPending)) return <PageLoading />;
  const title = t(route.titleKey, { ns: 'route' });

  const run = async (action: () => Promise<unknown>, success: string, after: () => void) => {
    setBusy(true);
    try {
      await action();
      toastSuccess(success);
      after();
      await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const openFile = async (fileKey: string) => {
    try {
      const { url } = await fileUrl(fileKey);
      window.open(url, '_blank', 'noopener');
    } catch (error) {
      handleApiError(error);
    }
  };

  const time = (v: string | null) => (v ? new Date(v).toLocaleString(i18n.language) : '—');
  const columns: ColumnsType<AuthorityRecord> = [
    { title: t('members.applyNo'), dataIndex: 'applyNo', key: 'applyNo' },
    ...(scope === 'organization'
      ? [
          {
            title: t('members.applier'),
            key: 'applier',
            render: (_: unknown, r: AuthorityRecord) => `${r.applierName} ${r.applierPhone}`,
          },
        ]
      : []),
    {
      title: t('members.applyRoles'),
      key: 'roles',
      render: (_, r) => (
        <Space size={4} wrap>
          {r.roles.map((role) => (
            <Tag key={role.code} color="blue" variant="filled">
              {role.name}
            </Tag>
          ))}
        </Space>
      ),
    },
    { title: t('members.appliedAt'), key: 'createTime', render: (_, r) => time(r.createTime) },
    {
      title: t('members.statusTitle'),
      key: 'status',
      render: (_, r) => (
        <Tag color={STATUS_COLOUR[r.applyStatus]} data-testid="apply-status" data-status={r.applyStatus}>
          {r.statusText || t(`members.apply.${r.applyStatus}`)}
        </Tag>
      ),
    },
    {
      title: t('members.rejectReason'),
      key: 'rejectReason',
      render: (_, r) => <span data-testid="apply-reject-reason">{r.rejectReason ?? '—'}</span>,
    },
    { title: t('members.completedAt'), key: 'completeTime', render: (_, r) => time(r.completeTime) },
    {
      title: t('members.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => void openFile(r.applyFileKey)}
            data-testid="apply-view-file"
          >
            {t('members.viewFile')}
          </Button>
          {scope === 'mine' && r.applyStatus === 'pending' ? (
            <Button
              type="link"
              size="small"
              danger
              data-testid="apply-withdraw"
              onClick={() => setPending({ kind: 'withdraw', record: r })}
            >
              {t('members.withdraw')}
            </Button>
          ) : null}
          {scope === 'organization' && r.applyStatus === 'pending' ? (
            <>
              <Button
                type="link"
                size="small"
                data-testid="apply-approve"
                onClick={() => setPending({ kind: 'approve', record: r })}
              >
                {t('members.approve')}
              </Button>
              <Button
                type="link"
                size="small"
                danger
                data-testid="apply-reject"
                onClick={() => {
                  setReason('');
                  setRejecting(r);
                }}
              >
                {t('members.reject')}
              </Button>
            </>
          ) : null}
        </Space>
      ),
    },
  ];

  const statusFilter: (AuthorityStatus | 'all')[] = ['all', 'pending', 'approved', 'rejected', 'withdrawn'];

  return (
    <div className="os-page" data-testid="apply-authority-record-page">
      <BackHeader title={title} fallback="/userCenter/infoPersonal" />
      <div className="os-card">
        {!inOrg ? (
          <OrgOnlyNotice />
        ) : (
          <>
            <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 12 }}>
              <Space wrap>
                {statusFilter.map((s) => (
                  <Tag.CheckableTag
                    key={s}
                    checked={(applyStatus ?? 'all') === s}
                    data-testid={`apply-filter-${s}`}
                    onChange={() => {
                      setApplyStatus(s === 'all' ? undefined : s);
                      setPageNum(1);
                    }}
                  >
                    {s === 'all' ? t('members.status.all') : t(`members.apply.${s}`)}
                  </Tag.CheckableTag>
                ))}
              </Space>
              <Button
                type="primary"
                data-testid="apply-open"
                onClick={() => void navigate('/userCenter/infoPersonal/applyAuthority')}
              >
                {t('members.applyNew')}
              </Button>
            </div>
            {canReview ? (
              <Tabs
                activeKey={scope}
                onChange={(k) => {
                  setScope(k as AuthorityScope);
                  setPageNum(1);
                }}
                items={[
                  { key: 'mine', label: <span data-testid="apply-tab-mine">{t('members.tabMine')}</span> },
                  {
                    key: 'organization',
                    label: <span data-testid="apply-tab-organization">{t('members.tabReview')}</span>,
                  },
                ]}
              />
            ) : null}
            <Table<AuthorityRecord>
              rowKey="applyNo"
              columns={columns}
              dataSource={records.data?.list ?? []}
              loading={records.isFetching}
              onRow={(r) =>
                ({ 'data-testid': 'apply-row', 'data-apply-no': r.applyNo }) as HTMLAttributes<HTMLElement>
              }
              locale={{ emptyText: t('members.emptyApply') }}
              pagination={{
                current: pageNum,
                pageSize: PAGE_SIZE,
                total: records.data?.total ?? 0,
                showSizeChanger: false,
                onChange: setPageNum,
              }}
            />
          </>
        )}
      </div>

      <WarningDialog
        open={pending !== null}
        title={pending ? t(`members.confirm.${pending.kind}Title`) : ''}
        content={
          pending
            ? t(`members.confirm.${pending.kind}Text`, {
                roles: pending.record.roles.map((r) => r.name).join('、'),
                name: pending.record.applierName,
              })
            : ''
        }
        danger={pending?.kind === 'withdraw'}
        confirmLoading={busy}
        testId="apply-confirm"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          const no = pending.record.applyNo;
          if (pending.kind === 'approve')
            void run(
              () => approveAuthority(no),
              t('members.approveSuccess'),
              () => setPending(null),
            );
          else
            void run(
              () => withdrawAuthority(no),
              t('members.withdrawSuccess'),
              () => setPending(null),
            );
        }}
      />

      <AppDialog
        open={rejecting !== null}
        title={t('members.rejectTitle')}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{ danger: true, 'data-testid': 'apply-reject-confirm' }}
        onCancel={() => setRejecting(null)}
        onOk={() => {
          if (!rejecting) return;
          if (!reason.trim()) {
            toastWarning(t('members.rejectReasonRequired'));
            return;
          }
          void run(
            () => rejectAuthority(rejecting.applyNo, reason.trim()),
            t('members.rejectSuccess'),
            () => setRejecting(null),
          );
        }}
      >
        <Input.TextArea
          rows={4}
          maxLength={500}
          showCount
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t('members.rejectReasonPlaceholder')}
          data-testid="apply-reject-reason-input"
        />
      </AppDialog>
    </div>
  );
}
