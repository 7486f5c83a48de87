import { BankOutlined, FileProtectOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Descriptions, Result, Space, Steps, Typography, theme } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageLoading } from '../../../components/page-loading';
import { isApiError } from '../../../lib/api-client';
import type { PageProps } from '../../../lib/page';
import { claimSeals, useClaimFlow } from '../api/flow';
import { SEALS_KEY } from '../api/seals';
import { FlowSealCard } from '../components/flow-seal-card';
import {
  afterClaim,
  decideFlow,
  FLOW_PATHS,
  flowEntryOf,
  formatFlowTime,
  outcomeAddress,
  outcomeOfError,
  type FlowEntry,
} from '../model/flow-outcome';

/**
 * /getSealFlow (spec sections 2, 4 and 6): the legal representative claims approved seals, in the app
 * (`?applyNo=a,b`) or through a signed claim link (`?getSealFlowId&expires&sig`). The page shows the
 * organisation, the seals with their impressions and the seal-use agreement, which must be accepted
 * before the claim. Any other situation (not the legal representative, nothing to claim, a bad link,
 * seals already claimed) leads to its result page, which asks the server again on reload.
 */
export function GetSealFlowPage(_props: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const search = params.toString();
  const entry = useMemo(() => flowEntryOf(new URLSearchParams(search)), [search]);
  const flow = useClaimFlow(entry);

  const outcome = flow.data
    ? decideFlow({
        isLegalPerson: flow.data.isLegalPerson,
        canClaim: flow.data.canClaim,
        flowStatus: flow.data.flowStatus,
        items: flow.data.orders,
      })
    : null;
  const errorOutcome = flow.error ? outcomeOfError(isApiError(flow.error) ? flow.error.code : null) : null;
  const leaveTo =
    entry === null
      ? `${FLOW_PATHS.none}?reason=noEntry`
      : errorOutcome
        ? outcomeAddress(errorOutcome, entry)
        : outcome && outcome.kind !== 'claim'
          ? outcomeAddress(outcome, entry)
          : null;

  useEffect(() => {
    if (leaveTo) void navigate(leaveTo, { replace: true });
  }, [leaveTo, navigate]);

  if (leaveTo || flow.isPending) return <PageLoading />;
  if (flow.error || !flow.data || !entry || outcome?.kind !== 'claim')
    return (
      <div className="os-page" data-testid="flow-load-failed">
        <div className="os-card">
          <Result
            status="error"
            title={t('sealFlow.loadFailed')}
            subTitle={flow.error?.message}
            extra={
              <Button type="primary" onClick={() => void flow.refetch()} data-testid="flow-retry">
                {t('sealFlow.retry')}
              </Button>
            }
          />
        </div>
      </div>
    );

  const claimable = new Set(outcome.claimable);
  return (
    <ClaimForm
      entry={entry}
      organizeName={flow.data.organizeName}
      legalName={flow.data.legalName}
      expiresAt={flow.data.expiresAt}
      orders={flow.data.orders.filter((o) => claimable.has(o.applyNo))}
      applyNos={outcome.claimable}
    />
  );
}

function ClaimForm({
  entry,
  organizeName,
  legalName,
  expiresAt,
  orders,
  applyNos,
}: {
  entry: FlowEntry;
  organizeName: string | null;
  legalName: string | null;
  expiresAt: string | null;
  orders: Parameters<typeof FlowSealCard>[0]['order'][];
  applyNos: string[];
}) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [agreed, setAgreed] = useState(false);
  const [warned, setWarned] = useState(false);
  const [busy, setBusy] = useState(false);
  const paragraphs = t('sealFlow.agreement', { returnObjects: true }) as unknown as string[];

  const claim = async () => {
    if (!agreed) {
      setWarned(true);
      return;
    }
    setBusy(true);
    try {
      const answer = await claimSeals(entry.kind === 'link' ? { link: entry.link } : { applyNos });
      void client.invalidateQueries({ queryKey: SEALS_KEY });
      const claimed = answer.list.map((i) => i.applyNo);
      const next = afterClaim(answer);
      void navigate(outcomeAddress({ kind: next }, { kind: 'apply', applyNos: claimed }), { replace: true });
    } catch (error) {
      const outcome = outcomeOfError(isApiError(error) ? error.code : null);
      if (outcome) void navigate(outcomeAddress(outcome, entry), { replace: true });
      else {
        void message.error(error instanceof Error ? error.message : String(error));
        setBusy(false);
      }
    }
  };

  return (
    <div className="os-page" data-testid="flow-claim-page">
      <div className="os-card">
        <Typography.Title level={3} style={{ marginTop: 0, textAlign: 'center' }}>
          {t('sealFlow.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {t('sealFlow.subtitle')}
        </Typography.Paragraph>
        <Steps
          current={agreed ? 1 : 0}
          size="small"
          style={{ maxWidth: 640, margin: '8px auto 0' }}
          items={[
            { title: t('sealFlow.steps.check') },
            { title: t('sealFlow.steps.agree') },
            { title: t('sealFlow.steps.claim') },
          ]}
        />
      </div>

      <div className="os-card">
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 1, md: 3 }}
          title={
            <Space>
              <BankOutlined style={{ color: token.colorPrimary }} />
              <span data-testid="flow-org-name">{organizeName ?? '-'}</span>
            </Space>
          }
          items={[
            ...(legalName ? [{ key: 'legal', label: t('sealFlow.legalName'), children: legalName }] : []),
            ...(expiresAt
              ? [
                  {
                    key: 'expires',
                    label: t('sealFlow.expiresAt'),
                    children: formatFlowTime(expiresAt, i18n.language),
                  },
                ]
              : []),
          ]}
        />
        <Typography.Title level={5} style={{ margin: '8px 0 12px' }}>
          {t('sealFlow.toClaim', { count: orders.length })}
        </Typography.Title>
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {orders.map((o) => (
            <FlowSealCard key={o.applyNo} order={o} />
          ))}
        </Space>
      </div>

      <div className="os-card">
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          <FileProtectOutlined style={{ color: token.colorPrimary, marginRight: 8 }} />
          {t('sealFlow.agreementTitle')}
        </Typography.Title>
        <div
          data-testid="flow-agreement"
          tabIndex={0}
          style={{
            maxHeight: 220,
            overflowY: 'auto',
            padding: '12px 16px',
            background: token.colorFillQuaternary,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: 6,
            lineHeight: 1.8,
          }}
        >
          {paragraphs.map((p, i) => (
            <Typography.Paragraph key={i} style={{ marginBottom: 8 }}>
              {p}
            </Typography.Paragraph>
          ))}
        </div>
        <div style={{ marginTop: 16 }}>
          <Checkbox
            checked={agreed}
            onChange={(e) => {
              setAgreed(e.target.checked);
              if (e.target.checked) setWarned(false);
            }}
            data-testid="flow-agree"
          >
            {t('sealFlow.agreeLabel')}
          </Checkbox>
        </div>
        {warned && !agreed ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            title={t('sealFlow.mustAgree')}
            data-testid="flow-must-agree"
          />
        ) : null}
        <div style={{ marginTop: 24, textAlign: 'center' }}>
          <Button
            type="primary"
            size="large"
            style={{ minWidth: 200 }}
            loading={busy}
            onClick={() => void claim()}
            data-testid="flow-claim"
            data-agreed={agreed}
          >
            {busy ? t('sealFlow.claiming') : t('sealFlow.claim')}
          </Button>
        </div>
      </div>
    </div>
  );
}
