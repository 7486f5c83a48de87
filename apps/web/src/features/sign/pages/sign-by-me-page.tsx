import { ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Input, Space, Table, Tabs, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { flowAct, SIGN_KEY, useTaskList } from '../api/flows';
import type { FlowSummary, TaskListRequest } from '../api/types';
import { useReasonDialog } from '../components/reason-dialog';
import { SignTaskDrawer } from '../components/sign-task-drawer';
import { FlowStatusTag, TaskStatusTag } from '../components/status-tags';
import { detailPath, formatTime, signTaskPath } from '../model/format';
import { canRefuseTask, canSignTask } from '../model/status';
import { RatingPrompt } from '../../../components/rating-prompt';
import { FirstUseTour } from '../../../components/first-use-tour';

const PAGE_SIZE = 10;
const TABS: NonNullable<TaskListRequest['status']>[] = ['todo', 'waiting', 'done', 'all'];

/**
 * /signService/signByMe: the caller's signing tasks by state, searchable. "Sign" opens the signing panel
 * of the task (`?flowId=&taskId=` in the address, so the will-auth page can come back to it).
 */
export function SignByMePage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<(typeof TABS)[number]>('todo');
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState<string | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const list = useTaskList({ status: tab, keyword: search, pageNum, pageSize: PAGE_SIZE });
  const reason = useReasonDialog();
  /** The flow just signed here: its rating prompt shows above the list. */
  const [justSigned, setJustSigned] = useState<string | null>(null);

  const openFlowId = params.get('flowId');
  const openTaskId = params.get('taskId');
  const willBizId = params.get('willAuth') === '3' ? params.get('willBizId') : null;
  const closePanel = () => setParams({}, { replace: true });

  const refuse = (row: FlowSummary) =>
    reason.open({
      title: t('signCommon.refuseTitle'),
      required: true,
      testId: 'refuse',
      run: async (text) => {
        await flowAct(row.flowId, 'refuse', text);
        toastSuccess(t('signCommon.done'));
        await queryClient.invalidateQueries({ queryKey: SIGN_KEY });
      },
    });

  const columns: ColumnsType<FlowSummary> = [
    {
      title: t('signCommon.flowName'),
      key: 'name',
      render: (_, r) => (
        <div>
          <Typography.Link onClick={() => void navigate(detailPath(r.flowId))}>{r.name}</Typography.Link>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t(`signCommon.scene.${r.scene}`)} ·{' '}
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
      width: 150,
      render: (_, r) => (
        <Space orientation="vertical" size={2}>
          <FlowStatusTag status={r.status} />
          {r.myTaskStatus ? <TaskStatusTag status={r.myTaskStatus} /> : null}
        </Space>
      ),
    },
    {
      title: t('signCommon.operations'),
      key: 'actions',
      width: 170,
      render: (_, r) => (
        <Space size={0} wrap>
          {r.myTaskId && canSignTask(r.myTaskStatus) ? (
            <Button
              type="link"
              size="small"
              data-testid="task-sign"
              onClick={() => setParams({ flowId: r.flowId, taskId: r.myTaskId ?? '' })}
            >
              {t('signCommon.sign')}
            </Button>
          ) : null}
          {r.myTaskId && canRefuseTask(r.myTaskStatus) ? (
            <Button type="link" size="small" danger data-testid="task-refuse" onClick={() => refuse(r)}>
              {t('signCommon.refuse')}
            </Button>
          ) : null}
          <Button
            type="link"
            size="small"
            data-testid="task-detail"
            onClick={() => void navigate(detailPath(r.flowId))}
          >
            {t('signCommon.detail')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div className="os-page" data-testid="sign-by-me-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/" />
      {justSigned ? <RatingPrompt scene="sign" bizId={justSigned} /> : null}
      <div className="os-card">
        <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 12 }}>
          <Tabs
            activeKey={tab}
            onChange={(k) => {
              setTab(k as (typeof TABS)[number]);
              setPageNum(1);
            }}
            items={TABS.map((k) => ({
              key: k,
              label: <span data-testid={`task-tab-${k}`}>{t(`signList.tab.${k}`)}</span>,
            }))}
          />
          <Space>
            <Input.Search
              allowClear
              value={keyword}
              placeholder={t('signCommon.search')}
              onChange={(e) => setKeyword(e.target.value)}
              onSearch={(v) => {
                setSearch(v.trim() || undefined);
                setPageNum(1);
              }}
              style={{ width: 240 }}
              data-testid="task-search"
            />
            <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching}>
              {t('signCommon.refresh')}
            </Button>
          </Space>
        </div>
        <Table<FlowSummary>
          rowKey="flowId"
          size="middle"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching && !list.data}
          data-testid="task-table"
          onRow={(r) =>
            ({
              'data-testid': 'task-row',
              'data-id': r.flowId,
              'data-status': r.myTaskStatus ?? '',
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
      {openFlowId && openTaskId ? (
        <SignTaskDrawer
          flowId={openFlowId}
          taskId={openTaskId}
          willBizId={willBizId}
          redirectPath={signTaskPath(openFlowId, openTaskId)}
          onClose={closePanel}
          onDone={() => {
            setJustSigned(openFlowId);
            closePanel();
            void queryClient.invalidateQueries({ queryKey: SIGN_KEY });
          }}
        />
      ) : null}
      {reason.dialog}
      {openFlowId && openTaskId ? null : (
        <FirstUseTour
          page="signList"
          steps={[
            { target: 'task-tab-todo', key: 'tabs' },
            { target: 'task-search', key: 'search' },
            { target: 'task-table', key: 'table' },
          ]}
        />
      )}
    </div>
  );
}
