import { BellOutlined, ReloadOutlined } from '@ant-design/icons';
import { contracts } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Input, Segmented, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { downloadFlowFile, fetchFlow, flowAct, oneKeyUrge, SIGN_KEY, urge, useFlowList } from '../api/flows';
import type { FlowListRequest, FlowStatus, FlowSummary } from '../api/types';
import { useReasonDialog } from '../components/reason-dialog';
import { FlowStatusTag } from '../components/status-tags';
import { detailPath, formatTime, signTaskPath } from '../model/format';
import { flowRowActions, type RowAction } from '../model/status';

const PAGE_SIZE = 10;
type Role = NonNullable<FlowListRequest['role']>;

/**
 * /signService/signRecord: flows the caller started or takes part in, filtered by role, status and name;
 * row actions by the flow's state table (the detail page follows the server's `actions`); one-key urge
 * reminds every signer still due in the caller's open flows.
 */
export function SignRecordPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>('all');
  const [status, setStatus] = useState<FlowStatus | undefined>(undefined);
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState<string | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const list = useFlowList({ role, status, keyword: search, pageNum, pageSize: PAGE_SIZE });
  const reason = useReasonDialog();
  const refresh = () => queryClient.invalidateQueries({ queryKey: SIGN_KEY });

  const showUrged = (r: { urged: number; skipped: number }) => toastSuccess(t('signCommon.urged', r), 3_000);
  const act = async (row: FlowSummary, action: RowAction) => {
    try {
      switch (action) {
        case 'detail':
          return void navigate(detailPath(row.flowId));
        case 'sign':
          return void navigate(signTaskPath(row.flowId, row.myTaskId ?? ''));
        case 'urge':
          showUrged(await urge(row.flowId));
          return void refresh();
        case 'withdraw':
        case 'void':
          return reason.open({
            title: t(action === 'void' ? 'signCommon.voidTitle' : 'signCommon.withdrawTitle'),
            required: true,
            testId: action,
            run: async (text) => {
              await flowAct(row.flowId, action, text);
              toastSuccess(t('signCommon.done'));
              await refresh();
            },
          });
        case 'download': {
          const detail = await fetchFlow(row.flowId);
          for (const f of detail.files) await downloadFlowFile(row.flowId, f);
          return;
        }
        default: {
          const never: never = action;
          return never;
        }
      }
    } catch (error) {
      handleApiError(error);
    }
  };

  const columns: ColumnsType<FlowSummary> = [
    {
      title: t('signCommon.flowName'),
      key: 'name',
      render: (_, r) => (
        <div>
          <Typography.Link onClick={() => void navigate(detailPath(r.flowId))}>{r.name}</Typography.Link>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t(`signCommon.scene.${r.scene}`)} · {t(`signCommon.order.${r.order}`)} ·{' '}
              {t('signCommon.progress', { signed: r.signedCount, total: r.signerCount })}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: t('signCommon.initiator'),
      key: 'initiator',
      width: 180,
      render: (_, r) => (
        <div>
          <div>{r.initiatorName}</div>
          {r.initiatorOrganizeName ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.initiatorOrganizeName}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    {
      title: t('signCommon.createdAt'),
      key: 'createdAt',
      width: 140,
      render: (_, r) => formatTime(r.createdAt),
    },
    {
      title: t('signCommon.validUntil'),
      key: 'validUntil',
      width: 110,
      render: (_, r) => formatTime(r.validUntil, true),
    },
    {
      title: t('signCommon.status'),
      key: 'status',
      width: 100,
      render: (_, r) => <FlowStatusTag status={r.status} />,
    },
    {
      title: t('signCommon.operations'),
      key: 'actions',
      width: 200,
      render: (_, r) => (
        <Space size={0} wrap>
          {flowRowActions(r, role === 'initiated').map((a) => (
            <Button
              key={a}
              type="link"
              size="small"
              danger={a === 'withdraw' || a === 'void'}
              data-testid={`record-${a}`}
              onClick={() => void act(r, a)}
            >
              {t(`signCommon.${a}`)}
            </Button>
          ))}
        </Space>
      ),
    },
  ];

  return (
    <div className="os-page" data-testid="sign-record-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/signService/signByMe" />
      <div className="os-card">
        <div
          style={{
            display: 'flex',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            gap: 12,
            marginBottom: 16,
          }}
        >
          <Space wrap>
            <Segmented<Role>
              value={role}
              onChange={(v) => {
                setRole(v);
                setPageNum(1);
              }}
              options={(['all', 'initiated', 'participated'] as const).map((v) => ({
                value: v,
                label: t(`signCommon.role.${v}`),
              }))}
              data-testid="record-role"
            />
            <Select<FlowStatus>
              allowClear
              style={{ width: 140 }}
              placeholder={t('signCommon.allStatuses')}
              value={status}
              onChange={(v) => {
                setStatus(v);
                setPageNum(1);
              }}
              options={contracts.FLOW_STATUSES.map((s) => ({
                value: s,
                label: t(`signCommon.flowStatus.${s}`),
              }))}
              data-testid="record-status"
            />
            <Input.Search
              allowClear
              value={keyword}
              placeholder={t('signCommon.search')}
              onChange={(e) => setKeyword(e.target.value)}
              onSearch={(v) => {
                setSearch(v.trim() || undefined);
                setPageNum(1);
              }}
              style={{ width: 220 }}
            />
          </Space>
          <Space>
            <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching}>
              {t('signCommon.refresh')}
            </Button>
            <Button
              icon={<BellOutlined />}
              onClick={() => void oneKeyUrge().then(showUrged).then(refresh).catch(handleApiError)}
              data-testid="record-one-key-urge"
            >
              {t('signList.oneKeyUrge')}
            </Button>
          </Space>
        </div>
        <Table<FlowSummary>
          rowKey="flowId"
          size="middle"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching && !list.data}
          data-testid="record-table"
          onRow={(r) =>
            ({
              'data-testid': 'record-row',
              'data-id': r.flowId,
              'data-status': r.status,
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
      {reason.dialog}
    </div>
  );
}
