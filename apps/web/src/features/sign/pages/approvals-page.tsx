import { contracts } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Empty, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { decideApproval, useApprovalList } from '../api/approvals';
import { SIGN_KEY } from '../api/flows';
import type { ApprovalAction, ApprovalStatus, ApprovalSummary } from '../api/types';
import { useReasonDialog } from '../components/reason-dialog';
import { ApprovalStatusTag } from '../components/status-tags';
import { detailPath, formatTime } from '../model/format';
import { approvalNeedsReason, orderedApprovalActions } from '../model/status';
import { ResponsiveTable } from '../../../components/responsive-table';
import { useIsMobile } from '../../../hooks/use-is-mobile';

const PAGE_SIZE = 10;

/** /signService/approveReceived: seal-use approvals the caller may decide (or decided). */
export function ApproveReceivedPage(props: PageProps) {
  return <ApprovalsPage which="receive" {...props} />;
}

/** /signService/approveLaunch: seal-use approvals the caller raised. */
export function ApproveLaunchPage(props: PageProps) {
  return <ApprovalsPage which="start" {...props} />;
}

/**
 * The two approval lists: a status filter, each row's decisions from its `actions` (refuse and return ask
 * a reason, withdraw and terminate take an optional one), and a drawer with the seal image and the
 * placements the applicant asked for.
 */
function ApprovalsPage({ route, which }: PageProps & { which: 'receive' | 'start' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ApprovalStatus | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const [open, setOpen] = useState<ApprovalSummary | null>(null);
  const list = useApprovalList(which, { status, pageNum, pageSize: PAGE_SIZE });
  const reason = useReasonDialog();
  const mobile = useIsMobile();

  const decide = (a: ApprovalSummary, action: ApprovalAction) => {
    const run = async (text?: string) => {
      const next = await decideApproval(a.approvalId, action, text || undefined);
      toastSuccess(t('signCommon.done'));
      if (open?.approvalId === a.approvalId) setOpen(next);
      await queryClient.invalidateQueries({ queryKey: SIGN_KEY });
    };
    if (action === 'approve') return void run().catch(handleApiError);
    reason.open({
      title: t(`signApproval.action.${action}`),
      required: approvalNeedsReason(action),
      testId: `approval-${action}`,
      run,
    });
  };

  const actionButtons = (a: ApprovalSummary) =>
    orderedApprovalActions(a.actions).map((action) => (
      <Button
        key={action}
        type={action === 'approve' ? 'primary' : 'link'}
        size="small"
        danger={action === 'refuse' || action === 'terminate'}
        onClick={() => decide(a, action)}
        data-testid={`approval-${action}`}
      >
        {t(`signApproval.action.${action}`)}
      </Button>
    ));

  const columns: ColumnsType<ApprovalSummary> = [
    {
      title: t('signApproval.flow'),
      key: 'flow',
      render: (_, a) => (
        <div>
          <Typography.Link onClick={() => void navigate(detailPath(a.flowId))}>{a.flowName}</Typography.Link>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {a.organizeName}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: t('signApproval.seal'),
      key: 'seal',
      width: 180,
      render: (_, a) => (
        <Space>
          {a.sealImageUrl ? (
            <img src={a.sealImageUrl} alt="" style={{ width: 32, height: 32, objectFit: 'contain' }} />
          ) : null}
          {a.sealName}
        </Space>
      ),
    },
    { title: t('signApproval.applicant'), key: 'applicant', width: 100, render: (_, a) => a.applicantName },
    {
      title: t('signApproval.createdAt'),
      key: 'createdAt',
      width: 140,
      render: (_, a) => formatTime(a.createdAt),
    },
    {
      title: t('signCommon.status'),
      key: 'status',
      width: 100,
      render: (_, a) => <ApprovalStatusTag status={a.status} />,
    },
    {
      title: t('signCommon.operations'),
      key: 'ops',
      width: 240,
      render: (_, a) => (
        <Space size={4} wrap>
          <Button type="link" size="small" onClick={() => setOpen(a)} data-testid="approval-detail">
            {t('signCommon.detail')}
          </Button>
          {actionButtons(a)}
        </Space>
      ),
    },
  ];

  return (
    <div className="os-page" data-testid={`approvals-${which}-page`}>
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/signService/signByMe" />
      <div className="os-card">
        <Select<ApprovalStatus>
          allowClear
          style={{ width: 160, marginBottom: 16 }}
          placeholder={t('signCommon.allStatuses')}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPageNum(1);
          }}
          options={contracts.APPROVAL_STATUSES.map((s) => ({
            value: s,
            label: t(`signCommon.approvalStatus.${s}`),
          }))}
          data-testid="approval-filter"
        />
        <ResponsiveTable<ApprovalSummary>
          rowKey="approvalId"
          size="middle"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching && !list.data}
          onRow={(a) =>
            ({
              'data-testid': 'approval-row',
              'data-id': a.approvalId,
              'data-flow-id': a.flowId,
              'data-status': a.status,
            }) as HTMLAttributes<HTMLTableRowElement>
          }
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('signCommon.empty')} />,
          }}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: list.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('signCommon.total', { total }),
            onChange: setPageNum,
          }}
        />
      </div>
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        size={mobile ? '100%' : 520}
        title={t('signApproval.detailTitle')}
        data-testid="approval-drawer"
        extra={open ? <Space>{actionButtons(open)}</Space> : null}
      >
        {open ? (
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {open.sealImageUrl ? (
              <div style={{ textAlign: 'center' }}>
                <img
                  src={open.sealImageUrl}
                  alt=""
                  style={{ width: 160, height: 160, objectFit: 'contain' }}
                  data-testid="approval-seal-image"
                />
              </div>
            ) : null}
            <Descriptions size="small" column={1} bordered>
              <Descriptions.Item label={t('signApproval.flow')}>{open.flowName}</Descriptions.Item>
              <Descriptions.Item label={t('signApproval.seal')}>{open.sealName}</Descriptions.Item>
              <Descriptions.Item label={t('signApproval.organisation')}>
                {open.organizeName}
              </Descriptions.Item>
              <Descriptions.Item label={t('signApproval.applicant')}>{open.applicantName}</Descriptions.Item>
              <Descriptions.Item label={t('signApproval.reason')}>{open.reason ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('signCommon.status')}>
                <ApprovalStatusTag status={open.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('signApproval.decider')}>
                {open.deciderName ?? '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('signApproval.decisionReason')}>
                {open.decisionReason ?? '—'}
              </Descriptions.Item>
            </Descriptions>
            <div>
              <Typography.Text strong>{t('signApproval.placements')}</Typography.Text>
              <ul style={{ paddingLeft: 20, marginTop: 8 }} data-testid="approval-placements">
                {open.placements.map((p, i) => (
                  <li key={i}>
                    <Tag>{t(`signCommon.kind.${p.kind}`)}</Tag>
                    {t('signApproval.position', { page: p.page, x: p.x, y: p.y })}
                  </li>
                ))}
              </ul>
            </div>
          </Space>
        ) : null}
      </Drawer>
      {reason.dialog}
    </div>
  );
}
