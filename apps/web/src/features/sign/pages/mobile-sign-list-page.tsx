import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Result, Segmented, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { mobileHref } from '../../../lib/device';
import type { PageProps } from '../../../lib/page';
import { SIGN_KEY, useFlowDetail, useFlowList, useTaskList } from '../api/flows';
import type { FlowSummary, TaskListRequest } from '../api/types';
import { SignTaskBody } from '../components/sign-task-body';
import { FlowStatusTag, TaskStatusTag } from '../components/status-tags';
import { detailPath, formatTime, signTaskPath } from '../model/format';
import { canSignTask } from '../model/status';
import { RatingPrompt } from '../../../components/rating-prompt';
import { FirstUseTour } from '../../../components/first-use-tour';

const PAGE_SIZE = 10;
const TABS: NonNullable<TaskListRequest['status']>[] = ['todo', 'waiting', 'done', 'all'];

/** "Load more" under a list paged by growing it, while rows remain. */
function MoreButton({
  shown,
  total,
  busy,
  onMore,
}: {
  shown: number;
  total: number;
  busy: boolean;
  onMore: () => void;
}) {
  const { t } = useTranslation();
  if (shown >= total) return null;
  return (
    <Button block onClick={onMore} loading={busy} data-testid="mobile-more">
      {t('mobile.sign.more')}
    </Button>
  );
}

/** One flow as a card: name, initiator, deadline, states, and "sign" where it is the caller's turn. */
function FlowCard({ flow, onSign }: { flow: FlowSummary; onSign?: () => void }) {
  const { t } = useTranslation();
  return (
    <article className="os-m-card" data-testid="mobile-flow-card" data-id={flow.flowId}>
      <div className="os-m-card__head">
        <h2 className="os-m-card__title">{flow.name}</h2>
        <FlowStatusTag status={flow.status} />
      </div>
      <div className="os-m-card__meta">
        {t('mobile.sign.initiator')}: {flow.initiatorOrganizeName ?? flow.initiatorName}
        <br />
        {t('signCommon.progress', { signed: flow.signedCount, total: flow.signerCount })} ·{' '}
        {t('mobile.sign.deadline')} {formatTime(flow.validUntil, true)}
        {flow.myTaskStatus ? (
          <>
            {' '}
            <TaskStatusTag status={flow.myTaskStatus} />
          </>
        ) : null}
      </div>
      <div className="os-m-card__actions">
        <Link to={mobileHref(detailPath(flow.flowId))} data-testid="mobile-flow-detail">
          <Button block>{t('mobile.sign.detail')}</Button>
        </Link>
        {onSign ? (
          <Button type="primary" block onClick={onSign} data-testid="mobile-flow-sign">
            {t('mobile.sign.sign')}
          </Button>
        ) : null}
      </div>
    </article>
  );
}

/**
 * Signing one task on a phone (`?flowId=&taskId=`, the address SMS invitations and the will-auth page come
 * back to): the flow's pages fit the screen and zoom by pinching, a seal is dragged onto a page by touch,
 * will-auth by SMS, then the signature.
 */
function MobileSignTask({
  flowId,
  taskId,
  willBizId,
}: {
  flowId: string;
  taskId: string;
  willBizId: string | null;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const flow = useFlowDetail(flowId);
  const [signed, setSigned] = useState(false);
  const detail = flow.data;
  if (signed && detail)
    return (
      <Result
        status="success"
        title={t('mobile.sign.signed')}
        subTitle={t('mobile.sign.signedText', { name: detail.name })}
        data-testid="mobile-sign-done"
        extra={[
          <Button
            key="list"
            type="primary"
            block
            onClick={() => void navigate(mobileHref('/signService/signByMe'), { replace: true })}
          >
            {t('mobile.sign.backToList')}
          </Button>,
          <Button
            key="detail"
            block
            style={{ marginTop: 8 }}
            onClick={() => void navigate(mobileHref(detailPath(flowId)))}
          >
            {t('mobile.sign.detail')}
          </Button>,
        ]}
      >
        <RatingPrompt scene="sign" bizId={flowId} />
      </Result>
    );
  if (!detail) return <Spin style={{ display: 'block', padding: 48 }} />;
  return (
    <div data-testid="mobile-sign-task">
      <div className="os-m-card os-m-section">
        <div className="os-m-card__head">
          <h2 className="os-m-card__title" data-testid="mobile-sign-title">
            {detail.name}
          </h2>
          <FlowStatusTag status={detail.status} />
        </div>
        <div className="os-m-card__meta">{t('mobile.sign.pinchHint')}</div>
      </div>
      <SignTaskBody
        flow={detail}
        taskId={taskId}
        willBizId={willBizId}
        redirectPath={signTaskPath(flowId, taskId)}
        onDone={() => {
          setSigned(true);
          void queryClient.invalidateQueries({ queryKey: SIGN_KEY });
        }}
        onApprovalRequested={() => void flow.refetch()}
      />
    </div>
  );
}

/** The caller's signing tasks by state (signByMe), as cards; a task opens full-screen to sign. */
export function MobileSignListPage(_props: PageProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<(typeof TABS)[number]>('todo');
  const [pages, setPages] = useState(1);
  const list = useTaskList({ status: tab, pageNum: 1, pageSize: PAGE_SIZE * pages });
  const flowId = params.get('flowId');
  const taskId = params.get('taskId');
  if (flowId && taskId)
    return (
      <MobileSignTask
        flowId={flowId}
        taskId={taskId}
        willBizId={params.get('willAuth') === '3' ? params.get('willBizId') : null}
      />
    );
  const rows = list.data?.list ?? [];
  return (
    <div data-testid="mobile-sign-list">
      <div className="os-m-section os-m-tabs-scroll" data-testid="mobile-task-tabs">
        <Segmented
          value={tab}
          onChange={(v) => {
            setTab(v as (typeof TABS)[number]);
            setPages(1);
          }}
          options={TABS.map((k) => ({
            value: k,
            label: <span data-testid={`mobile-task-tab-${k}`}>{t(`mobile.sign.tabs.${k}`)}</span>,
          }))}
        />
      </div>
      {list.isLoading ? <Spin style={{ display: 'block', padding: 32 }} /> : null}
      {list.data && rows.length === 0 ? <Empty description={t('mobile.sign.empty')} /> : null}
      {rows.map((r) => (
        <FlowCard
          key={r.flowId}
          flow={r}
          onSign={
            r.myTaskId && canSignTask(r.myTaskStatus)
              ? () => setParams({ flowId: r.flowId, taskId: r.myTaskId ?? '' })
              : undefined
          }
        />
      ))}
      <MoreButton
        shown={rows.length}
        total={list.data?.total ?? 0}
        busy={list.isFetching}
        onMore={() => setPages((p) => p + 1)}
      />
      <FirstUseTour
        page="signList"
        steps={[
          { target: 'mobile-task-tabs', key: 'tabs' },
          { target: 'mobile-flow-card', key: 'card' },
          { target: 'mobile-tabs', key: 'bottom' },
        ]}
      />
    </div>
  );
}

/** Every flow the caller started or takes part in (signRecord), as cards. */
export function MobileSignRecordsPage(_props: PageProps) {
  const { t } = useTranslation();
  const [pages, setPages] = useState(1);
  const list = useFlowList({ role: 'all', pageNum: 1, pageSize: PAGE_SIZE * pages });
  const rows = list.data?.list ?? [];
  return (
    <div data-testid="mobile-sign-records">
      {list.isLoading ? <Spin style={{ display: 'block', padding: 32 }} /> : null}
      {list.data && rows.length === 0 ? <Empty description={t('mobile.sign.empty')} /> : null}
      {rows.map((r) => (
        <FlowCard key={r.flowId} flow={r} />
      ))}
      <MoreButton
        shown={rows.length}
        total={list.data?.total ?? 0}
        busy={list.isFetching}
        onMore={() => setPages((p) => p + 1)}
      />
    </div>
  );
}
