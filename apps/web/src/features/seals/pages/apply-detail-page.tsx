import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  LoadingOutlined,
  MinusCircleOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  Descriptions,
  Empty,
  Progress,
  Result,
  Row,
  Space,
  Spin,
  Timeline,
  Typography,
} from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { isApiError } from '../../../lib/api-client';
import type { PageProps } from '../../../lib/page';
import {
  useApplyViewer,
  useMakingProgress,
  useWorkOrder,
  type MakingState,
  type WorkOrder,
} from '../api/apply';
import { SEALS_KEY, useSeal } from '../api/seals';
import { ApplyActions } from '../components/apply-actions';
import { StatusTag } from '../components/status-tag';
import {
  awaitsClaim,
  claimsItself,
  isMaking,
  LIST_PATH,
  makingStage,
  receiveLabel,
  timelineOf,
  type StepState,
  type Viewer,
} from '../model/apply-records';

const STEP_LOOK: Record<StepState, { color: string; icon: ReactNode }> = {
  done: { color: 'green', icon: <CheckCircleOutlined /> },
  current: { color: 'blue', icon: <ClockCircleOutlined /> },
  waiting: { color: 'gray', icon: <ClockCircleOutlined /> },
  error: { color: 'red', icon: <CloseCircleOutlined /> },
  skipped: { color: 'gray', icon: <MinusCircleOutlined /> },
};

/** The job making the seal: its progress, polled every 2 s while it runs; the failure and a retry. */
function MakingCard({ order, viewer }: { order: WorkOrder; viewer: Viewer }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const running = isMaking(order.making);
  const progress = useMakingProgress(order.applyNo, running);
  const making: MakingState | null = progress.data?.making ?? order.making;
  const ended = progress.data ? !isMaking(progress.data.making) : false;

  // When the job ends, the application itself has moved on (made, or failed): read it again.
  useEffect(() => {
    if (running && ended) void queryClient.invalidateQueries({ queryKey: SEALS_KEY });
  }, [running, ended, queryClient]);

  if (!making) return null;
  const failed = making.state === 'failed';
  const stage = makingStage(making.note);
  const stateText =
    making.state === 'queued'
      ? t('sealApply.detail.makingQueued')
      : making.state === 'running'
        ? t('sealApply.detail.makingRunning')
        : making.state === 'done'
          ? t('sealApply.detail.makingDone')
          : t('sealApply.detail.makingFailed');
  return (
    <div
      className="os-card"
      data-testid="apply-making"
      data-state={making.state}
      data-progress={making.progress}
    >
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('sealApply.detail.making')}
      </Typography.Title>
      <Progress
        percent={making.state === 'done' ? 100 : making.progress}
        status={failed ? 'exception' : making.state === 'done' ? 'success' : 'active'}
        data-testid="apply-making-progress"
      />
      <Space size={16} wrap style={{ marginTop: 8 }}>
        <Typography.Text>
          {isMaking(making) ? <LoadingOutlined style={{ marginRight: 6 }} /> : null}
          {stateText}
        </Typography.Text>
        {stage ? (
          <Typography.Text type="secondary" data-testid="apply-making-stage">
            {t(`sealApply.detail.stage.${stage}`)}
          </Typography.Text>
        ) : null}
        <Typography.Text type="secondary">
          {t('sealApply.detail.attempts', { count: making.attempts })}
        </Typography.Text>
      </Space>
      {failed ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="apply-making-error"
          title={t('sealApply.detail.makingFailed')}
          description={making.error ?? undefined}
          action={<ApplyActions order={order} viewer={viewer} variant="button" hideDetail />}
        />
      ) : null}
    </div>
  );
}

/** The made seal's image, from the seal itself (a signed, expiring address). */
function SealImageCard({ sealCode }: { sealCode: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const seal = useSeal(sealCode);
  return (
    <div className="os-card" style={{ height: '100%' }} data-testid="apply-seal-image">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('sealApply.detail.sealImage')}
      </Typography.Title>
      {!sealCode ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sealApply.detail.noImage')} />
      ) : seal.isPending ? (
        <Spin />
      ) : (
        <Space orientation="vertical" align="center" style={{ width: '100%' }}>
          <div
            style={{
              width: 200,
              height: 200,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              background: 'repeating-conic-gradient(#f5f5f5 0 25%, #fff 0 50%) 0 0 / 16px 16px',
              border: '1px solid #f0f0f0',
            }}
          >
            {seal.data?.imageUrl ? (
              <img
                src={seal.data.imageUrl}
                alt={seal.data.name}
                style={{ maxWidth: '92%', maxHeight: '92%' }}
                data-testid="apply-seal-image-img"
              />
            ) : null}
          </div>
          {seal.data ? <StatusTag set="sealStatus" value={seal.data.status} /> : null}
          <Button
            type="link"
            data-testid="apply-to-my-seals"
            onClick={() => void navigate('/sealService/mySealList')}
          >
            {t('sealApply.detail.toMySeals')}
          </Button>
        </Space>
      )}
    </div>
  );
}

/**
 * /sealService/cloudSealDetail and ukeySealDetail (?applyNo=): one seal application with every field, its
 * progress from creation to the made seal, the made seal's image, the same actions as the list and, when
 * production runs as a job, its live progress.
 */
export function ApplyDetailPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const applyNo = params.get('applyNo');
  const viewer = useApplyViewer();
  const order = useWorkOrder(applyNo);
  const title = t(route.titleKey, { ns: 'route' });
  const listPath = route.path.toLowerCase().includes('ukey') ? LIST_PATH.ukey : LIST_PATH.cloud;

  if (!applyNo)
    return (
      <div className="os-page" data-testid="apply-detail-page">
        <BackHeader title={title} fallback={listPath} />
        <div className="os-card">
          <Result status="warning" title={t('sealApply.detail.missing')} />
        </div>
      </div>
    );
  if (!viewer || order.isPending) return <PageLoading />;
  if (!order.data)
    return (
      <div className="os-page" data-testid="apply-detail-page">
        <BackHeader title={title} fallback={listPath} />
        <div className="os-card">
          <Result
            status="error"
            title={isApiError(order.error) ? order.error.message : t('sealCommon.empty')}
            extra={<Button onClick={() => void navigate(listPath)}>{t('sealApply.toRecords')}</Button>}
          />
        </div>
      </div>
    );

  const w = order.data;
  const time = (v: string | null) => (v ? new Date(v).toLocaleString(i18n.language) : '—');
  const receive = receiveLabel(w);
  const notice =
    w.status === 'preCreated'
      ? { type: 'info' as const, text: t('sealApply.detail.draft') }
      : w.status === 'pendingReview'
        ? { type: 'info' as const, text: t('sealApply.detail.pendingReview') }
        : awaitsClaim(w)
          ? {
              type: 'warning' as const,
              text: claimsItself(viewer)
                ? t('sealApply.detail.awaitingClaimPerson')
                : t('sealApply.detail.awaitingClaim'),
            }
          : w.status === 'rejected'
            ? {
                type: 'error' as const,
                text: `${t('sealApply.detail.rejectReason')}：${w.rejectReason ?? '—'}`,
              }
            : null;

  const steps = timelineOf(w);

  return (
    <div className="os-page" data-testid="apply-detail-page" data-status={w.status} data-apply-no={w.applyNo}>
      <BackHeader
        title={title}
        fallback={LIST_PATH[w.carrier]}
        extra={<ApplyActions order={w} viewer={viewer} variant="button" hideDetail />}
      />
      {notice ? (
        <Alert type={notice.type} showIcon title={notice.text} data-testid="apply-detail-notice" />
      ) : null}
      {w.making ? <MakingCard order={w} viewer={viewer} /> : null}
      <Row gutter={16} align="stretch">
        <Col xs={24} lg={16}>
          <div className="os-card" style={{ height: '100%' }}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('sealApply.detail.basic')}
            </Typography.Title>
            <Descriptions
              bordered
              size="small"
              column={{ xs: 1, md: 2 }}
              styles={{ label: { width: 104, whiteSpace: 'nowrap' } }}
              data-testid="apply-detail-fields"
              items={[
                {
                  key: 'applyNo',
                  label: t('sealApply.records.applyNo'),
                  children: <span data-testid="apply-detail-no">{w.applyNo}</span>,
                },
                {
                  key: 'status',
                  label: t('sealCommon.status'),
                  children: <StatusTag set="workOrderStatus" value={w.status} />,
                },
                {
                  key: 'kind',
                  label: t('sealCommon.sealKind'),
                  children: t(`sealCommon.kind.${w.sealKind}`),
                },
                {
                  key: 'type',
                  label: t('sealApply.detail.sealType'),
                  children: t(`sealCommon.drawType.${w.sealType}`),
                },
                {
                  key: 'name',
                  label: t('sealCommon.sealName'),
                  children: <span data-testid="apply-detail-name">{w.sealName}</span>,
                },
                {
                  key: 'carrier',
                  label: t('sealApply.detail.carrier'),
                  children: t(`sealCommon.carrier.${w.carrier}`),
                },
                { key: 'title', label: t('sealApply.detail.title'), children: w.title ?? '—' },
                ...(w.sealType === 4
                  ? [{ key: 'title0', label: t('sealApply.detail.title0'), children: w.title0 ?? '—' }]
                  : []),
                {
                  key: 'size',
                  label: t('sealApply.detail.size'),
                  children: t('sealApply.sizeValue', { w: w.widthMm, h: w.heightMm }),
                },
                {
                  key: 'receive',
                  label: t('sealApply.records.receiveStatus'),
                  children: receive ? (
                    <span data-testid="apply-detail-receive" data-receive={receive}>
                      {t(`sealApply.receive.${receive}`)}
                    </span>
                  ) : (
                    '—'
                  ),
                },
                ...(w.organizeName
                  ? [{ key: 'org', label: t('sealApply.detail.organization'), children: w.organizeName }]
                  : []),
                {
                  key: 'applicant',
                  label: t('sealApply.detail.applicant'),
                  children: w.applicantName ?? '—',
                },
                { key: 'mobile', label: t('sealApply.detail.mobile'), children: w.applicantMobile ?? '—' },
                { key: 'sealCode', label: t('sealApply.detail.sealCode'), children: w.sealCode ?? '—' },
                { key: 'created', label: t('sealCommon.createTime'), children: time(w.createTime) },
                { key: 'submitted', label: t('sealApply.detail.submitTime'), children: time(w.submitTime) },
                { key: 'reviewed', label: t('sealApply.detail.reviewTime'), children: time(w.reviewTime) },
                { key: 'claimed', label: t('sealApply.detail.claimTime'), children: time(w.claimTime) },
                {
                  key: 'completed',
                  label: t('sealApply.detail.completeTime'),
                  children: time(w.completeTime),
                },
                ...(w.rejectReason
                  ? [
                      {
                        key: 'reason',
                        label: t('sealApply.detail.rejectReason'),
                        span: 'filled' as const,
                        children: (
                          <Typography.Text type="danger" data-testid="apply-detail-reason">
                            {w.rejectReason}
                          </Typography.Text>
                        ),
                      },
                    ]
                  : []),
              ]}
            />
          </div>
        </Col>
        <Col xs={24} lg={8}>
          <Space orientation="vertical" size={16} style={{ width: '100%', height: '100%' }}>
            <div className="os-card" data-testid="apply-timeline">
              <Typography.Title level={5} style={{ marginTop: 0 }}>
                {t('sealApply.detail.timeline')}
              </Typography.Title>
              <Timeline
                items={steps.map((s) => ({
                  key: s.key,
                  color: STEP_LOOK[s.state].color,
                  icon: STEP_LOOK[s.state].icon,
                  content: (
                    <div data-testid={`apply-step-${s.key}`} data-state={s.state}>
                      <Typography.Text
                        strong={s.state === 'current'}
                        type={
                          s.state === 'error'
                            ? 'danger'
                            : s.state === 'waiting' || s.state === 'skipped'
                              ? 'secondary'
                              : undefined
                        }
                      >
                        {t(`sealApply.step.${s.label}`)}
                      </Typography.Text>
                      {s.time ? (
                        <div>
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {time(s.time)}
                          </Typography.Text>
                        </div>
                      ) : null}
                    </div>
                  ),
                }))}
              />
            </div>
            <SealImageCard sealCode={w.status === 'made' ? w.sealCode : null} />
          </Space>
        </Col>
      </Row>
    </div>
  );
}
