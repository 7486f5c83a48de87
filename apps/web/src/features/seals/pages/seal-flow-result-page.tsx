import { CopyOutlined, LinkOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Progress, Result, Space, Typography, theme, type InputRef } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageLoading } from '../../../components/page-loading';
import type { PageProps } from '../../../lib/page';
import {
  fetchClaimLink,
  fetchIdentityCheck,
  retryMaking,
  useFlowStatus,
  useMakingStatus,
  useWorkOrders,
  type WorkOrder,
} from '../api/flow';
import { SEALS_KEY } from '../api/seals';
import { MadeSealImage } from '../components/flow-seal-card';
import { StatusTag } from '../components/status-tag';
import {
  decideFlow,
  entryQuery,
  FLOW_PATHS,
  flowEntryOf,
  formatFlowTime,
  percentOf,
  reasonOf,
  resultVariantOf,
  waitStateOf,
  type FlowEntry,
  type FlowResultVariant,
} from '../model/flow-outcome';
import { RatingPrompt } from '../../../components/rating-prompt';

const MY_SEALS = '/sealService/mySealList';

/**
 * The result pages of the seal-collection flow (spec section 2), one component for six routes:
 * seals made, production in progress (polled), manual review, only the legal representative may claim
 * (with the claim link to send), and the two "no claim" pages with their reason. Every page reads the
 * applications named in its address from the server, so a reload shows the same result.
 */
export function SealFlowResultPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const search = params.toString();
  const entry = useMemo(() => flowEntryOf(new URLSearchParams(search)), [search]);
  const variant = resultVariantOf(route.path) ?? 'none';
  const reason = params.get('reason');
  return (
    <div className="os-page" data-testid="flow-result" data-variant={variant}>
      <div className="os-card" style={{ padding: '24px 32px 32px' }}>
        <ResultBody variant={variant} entry={entry} reason={reason} />
      </div>
    </div>
  );
}

function ResultBody({
  variant,
  entry,
  reason,
}: {
  variant: FlowResultVariant;
  entry: FlowEntry | null;
  reason: string | null;
}) {
  switch (variant) {
    case 'made':
      return <MadeResult entry={entry} />;
    case 'waiting':
      return <WaitingResult entry={entry} />;
    case 'manualReview':
      return <ManualReviewResult entry={entry} />;
    case 'onlyLegal':
      return <OnlyLegalResult entry={entry} />;
    case 'noAuth':
      return <NoClaimResult variant="noAuth" reason={reasonOf(reason, 'noClaimPermission')} />;
    case 'none':
      return <NoClaimResult variant="none" reason={reasonOf(reason, 'nothingToClaim')} />;
    default: {
      const never: never = variant;
      return never;
    }
  }
}

function HomeButtons({ primary }: { primary?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Space wrap style={{ justifyContent: 'center' }}>
      {primary}
      <Button onClick={() => void navigate('/')} data-testid="flow-home">
        {t('sealFlow.home')}
      </Button>
    </Space>
  );
}

function MySealsButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => void navigate(MY_SEALS)} data-testid="flow-my-seals">
      {t('sealFlow.toMySeals')}
    </Button>
  );
}

/** Names of the applications, by number (the numbers stand in while the names load). */
function useOrderNames(applyNos: readonly string[]) {
  const orders = useWorkOrders(applyNos);
  const byNo = new Map<string, WorkOrder>((orders.data ?? []).map((o) => [o.applyNo, o]));
  return (applyNo: string) => byNo.get(applyNo)?.sealName ?? applyNo;
}

function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('sealFlow.loadFailed')}
      subTitle={<span data-testid="flow-result-error">{error.message}</span>}
      extra={
        <Button type="primary" onClick={onRetry} data-testid="flow-retry">
          {t('sealFlow.retry')}
        </Button>
      }
    />
  );
}

function MadeResult({ entry }: { entry: FlowEntry | null }) {
  const { t } = useTranslation();
  const status = useFlowStatus(entry);
  const list = status.data?.list ?? [];
  const nameOf = useOrderNames(list.map((i) => i.applyNo));
  if (!entry) return <NoClaimResult variant="none" reason="noEntry" />;
  if (status.isPending) return <PageLoading />;
  if (status.error) return <LoadError error={status.error} onRetry={() => void status.refetch()} />;
  const made = list.filter((i) => i.receiveStatus === 'made');
  return (
    <Result
      status="success"
      title={<span data-testid="flow-result-title">{t('sealFlow.result.made.title')}</span>}
      subTitle={t('sealFlow.result.made.text')}
      extra={<HomeButtons primary={<MySealsButton />} />}
    >
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, justifyContent: 'center' }}>
        {made.map((i) => (
          <div
            key={i.applyNo}
            data-testid="flow-made-seal"
            data-id={i.applyNo}
            data-seal-code={i.sealCode ?? ''}
            style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 }}
          >
            <MadeSealImage sealCode={i.sealCode} />
            <Typography.Text strong>{nameOf(i.applyNo)}</Typography.Text>
            <StatusTag set="workOrderStatus" value={i.status} />
          </div>
        ))}
      </div>
      {made[0] ? <RatingPrompt scene="getSeal" bizId={made[0].applyNo} /> : null}
    </Result>
  );
}

function WaitingResult({ entry }: { entry: FlowEntry | null }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [poll, setPoll] = useState(true);
  const making = useMakingStatus(entry, poll);
  const items = making.data ?? [];
  const state = waitStateOf(items);
  const nameOf = useOrderNames(items.map((i) => i.applyNo));
  const [retrying, setRetrying] = useState(false);

  useEffect(() => {
    const stop = state === 'done' || making.isError;
    setPoll(!stop);
    if (state === 'done') void client.invalidateQueries({ queryKey: SEALS_KEY, refetchType: 'none' });
  }, [state, making.isError, client]);

  if (!entry) return <NoClaimResult variant="none" reason="noEntry" />;
  if (making.isPending) return <PageLoading />;
  if (making.error) return <LoadError error={making.error} onRetry={() => void making.refetch()} />;

  const retry = async () => {
    setRetrying(true);
    try {
      for (const i of items.filter((x) => x.receiveStatus === 'failed')) await retryMaking(i.applyNo);
      void message.success(t('sealFlow.result.waiting.retried'));
      setPoll(true);
      await making.refetch();
    } catch {
      // The error handler has shown the server's message.
    } finally {
      setRetrying(false);
    }
  };

  const title =
    state === 'done'
      ? t('sealFlow.result.waiting.done')
      : state === 'failed'
        ? t('sealFlow.result.waiting.failed')
        : t('sealFlow.result.waiting.title');
  const text =
    state === 'done'
      ? t('sealFlow.result.waiting.doneText')
      : state === 'failed'
        ? t('sealFlow.result.waiting.failedText')
        : t('sealFlow.result.waiting.text');
  return (
    <Result
      status={state === 'done' ? 'success' : state === 'failed' ? 'warning' : 'info'}
      title={
        <span data-testid="flow-result-title" data-state={state}>
          {title}
        </span>
      }
      subTitle={text}
      extra={
        <HomeButtons
          primary={
            state === 'failed' ? (
              <Button
                type="primary"
                loading={retrying}
                onClick={() => void retry()}
                data-testid="flow-make-retry"
              >
                {t('sealFlow.result.waiting.retry')}
              </Button>
            ) : state === 'done' ? (
              <MySealsButton />
            ) : null
          }
        />
      }
    >
      <div style={{ maxWidth: 560, margin: '0 auto' }}>
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {items.map((i) => {
            const percent = percentOf(i);
            const jobState = i.receiveStatus === 'made' ? 'done' : (i.making?.state ?? 'queued');
            return (
              <div
                key={i.applyNo}
                data-testid="flow-making"
                data-id={i.applyNo}
                data-status={i.receiveStatus}
                data-progress={percent}
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 16,
                  padding: '12px 16px',
                  background: '#fff',
                  border: `1px solid ${token.colorBorderSecondary}`,
                  borderRadius: 8,
                }}
              >
                {i.receiveStatus === 'made' ? <MadeSealImage sealCode={i.sealCode} /> : null}
                <div style={{ flex: 1, minWidth: 0 }}>
                  <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                    <Typography.Text strong ellipsis>
                      {nameOf(i.applyNo)}
                    </Typography.Text>
                    <Typography.Text type="secondary">
                      {t(`sealFlow.result.waiting.state.${jobState}`)}
                    </Typography.Text>
                  </div>
                  <Progress
                    percent={percent}
                    status={
                      i.receiveStatus === 'failed'
                        ? 'exception'
                        : i.receiveStatus === 'made'
                          ? 'success'
                          : 'active'
                    }
                  />
                  {i.making?.error && i.receiveStatus === 'failed' ? (
                    <Typography.Text type="danger">{i.making.error}</Typography.Text>
                  ) : null}
                </div>
              </div>
            );
          })}
        </Space>
      </div>
    </Result>
  );
}

function ManualReviewResult({ entry }: { entry: FlowEntry | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useFlowStatus(entry);
  const list = status.data?.list ?? [];
  const nameOf = useOrderNames(list.map((i) => i.applyNo));
  if (!entry) return <NoClaimResult variant="none" reason="noEntry" />;
  if (status.isPending) return <PageLoading />;
  if (status.error) return <LoadError error={status.error} onRetry={() => void status.refetch()} />;
  const outcome = decideFlow({
    isLegalPerson: status.data.isLegalPerson,
    canClaim: status.data.canClaim,
    items: list,
  });
  return (
    <Result
      status="info"
      title={<span data-testid="flow-result-title">{t('sealFlow.result.manualReview.title')}</span>}
      subTitle={t('sealFlow.result.manualReview.text')}
      extra={
        <HomeButtons
          primary={
            outcome.kind === 'claim' || outcome.kind === 'onlyLegal' ? (
              <Button
                type="primary"
                onClick={() => void navigate(`${FLOW_PATHS.claim}?${entryQuery(entry)}`)}
                data-testid="flow-claim-now"
              >
                {t('sealFlow.result.manualReview.claimNow')}
              </Button>
            ) : (
              <Button onClick={() => void navigate('/sealService/applyRecordList')}>
                {t('sealFlow.toApplyRecords')}
              </Button>
            )
          }
        />
      }
    >
      <div style={{ maxWidth: 480, margin: '0 auto' }}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {list.map((i) => (
            <div
              key={i.applyNo}
              data-testid="flow-review-item"
              data-id={i.applyNo}
              data-status={i.status}
              style={{ display: 'flex', justifyContent: 'space-between', gap: 12 }}
            >
              <Typography.Text>{nameOf(i.applyNo)}</Typography.Text>
              <StatusTag set="workOrderStatus" value={i.status} />
            </div>
          ))}
        </Space>
      </div>
    </Result>
  );
}

/** Copies a text: the clipboard where the browser allows it, else the selected field. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    return document.execCommand('copy');
  }
}

function OnlyLegalResult({ entry }: { entry: FlowEntry | null }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [link, setLink] = useState<{ url: string; expiresAt: string | null } | null>(null);
  const [legalName, setLegalName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<InputRef>(null);

  // Opened through a link: that very link is the one to send; the server names the legal representative.
  useEffect(() => {
    if (entry?.kind !== 'link') return;
    setLink({ url: `${window.location.origin}${FLOW_PATHS.claim}?${entryQuery(entry)}`, expiresAt: null });
    let live = true;
    fetchIdentityCheck(entry.link)
      .then((who) => {
        if (!live) return;
        setLegalName(who.legalName);
        setLink((l) => (l ? { ...l, expiresAt: who.expiresAt } : l));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [entry]);

  if (!entry) return <NoClaimResult variant="none" reason="noEntry" />;

  const makeLink = async () => {
    if (entry.kind !== 'apply') return;
    setBusy(true);
    try {
      const answer = await fetchClaimLink(entry.applyNos);
      setLink({ url: `${window.location.origin}${answer.url}`, expiresAt: answer.expiresAt });
    } catch {
      // The error handler has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    if (!link) return;
    if (await copyText(link.url, field.current?.input ?? null))
      void message.success(t('sealFlow.result.onlyLegal.copied'));
    else void message.error(t('sealFlow.result.onlyLegal.copyFailed'));
  };

  return (
    <Result
      status="warning"
      title={<span data-testid="flow-result-title">{t('sealFlow.result.onlyLegal.title')}</span>}
      subTitle={
        legalName
          ? t('sealFlow.result.onlyLegal.text', { legal: `（${legalName}）` })
          : t('sealFlow.result.onlyLegal.textNoName')
      }
      extra={<HomeButtons />}
    >
      <div style={{ maxWidth: 640, margin: '0 auto' }}>
        {link ? (
          <Space orientation="vertical" size={8} style={{ width: '100%' }}>
            <Typography.Text strong>
              <LinkOutlined /> {t('sealFlow.result.onlyLegal.linkLabel')}
            </Typography.Text>
            <Space.Compact style={{ width: '100%' }}>
              <Input ref={field} readOnly value={link.url} data-testid="flow-claim-link" />
              <Button
                type="primary"
                icon={<CopyOutlined />}
                onClick={() => void copy()}
                data-testid="flow-copy-link"
              >
                {t('sealFlow.result.onlyLegal.copy')}
              </Button>
            </Space.Compact>
            {link.expiresAt ? (
              <Typography.Text type="secondary" data-testid="flow-link-expires">
                {t('sealFlow.result.onlyLegal.validUntil', {
                  time: formatFlowTime(link.expiresAt, i18n.language),
                })}
              </Typography.Text>
            ) : null}
          </Space>
        ) : (
          <div style={{ textAlign: 'center' }}>
            <Button
              type="primary"
              icon={<LinkOutlined />}
              loading={busy}
              onClick={() => void makeLink()}
              data-testid="flow-make-link"
            >
              {t('sealFlow.result.onlyLegal.makeLink')}
            </Button>
          </div>
        )}
      </div>
    </Result>
  );
}

function NoClaimResult({
  variant,
  reason,
}: {
  variant: 'noAuth' | 'none';
  reason: ReturnType<typeof reasonOf>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={variant === 'noAuth' ? '403' : 'warning'}
      title={<span data-testid="flow-result-title">{t(`sealFlow.result.${variant}.title`)}</span>}
      subTitle={
        <span data-testid="flow-result-reason" data-reason={reason}>
          {t(`sealFlow.reason.${reason}`)}
        </span>
      }
      extra={
        <HomeButtons
          primary={
            <Button type="primary" onClick={() => void navigate(MY_SEALS)} data-testid="flow-my-seals">
              {t('sealFlow.toMySeals')}
            </Button>
          }
        />
      }
    />
  );
}
