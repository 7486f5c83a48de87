import { checkMobile, checkOrgName, checkResidentId, checkUscc, entryForCode } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Divider, Form, Input, Result, Segmented, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { useCountdown } from '../../../hooks/use-countdown';
import { SESSION_QUERY_PREFIX, useAccountInfo } from '../../../hooks/use-session';
import { isApiError } from '../../../lib/api-client';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import type { PageProps } from '../../../lib/page';
import {
  confirmAmount,
  confirmCode,
  startFlow,
  submitOrganization,
  useFlowResult,
  useRecords,
  type OrgMethod,
  type RealNameMaterial,
  type RealNameOrgRequest,
} from '../api/realname';
import { CodeField } from '../components/code-field';
import { FlowResult } from '../components/flow-result';
import { MaterialPicker } from '../components/material-picker';
import { SandboxNotice } from '../components/sandbox-tag';
import { useFlowParam } from '../model/flow-param';
import { amountToCents, MAX_AMOUNT_ATTEMPTS } from '../model/material';

interface Values {
  organizeName: string;
  uscc: string;
  legalName: string;
  legalIdNumber: string;
  legalMobile?: string;
  bankAccount?: string;
  code?: string;
}

/** A flow of this page; `submitted` once its details were accepted (a new attempt needs a new flow). */
interface Draft {
  flowId: string;
  submitted: boolean;
  sandbox: boolean;
}

interface AmountStage {
  flowId: string;
  sandboxAmountCents: number | undefined;
  triesLeft: number;
}

const DETAIL = '/userCenter/infoEnt/realNameAuditDetail';
const DONE = '/userCenter/infoEnt';

function errorKey(error: unknown): string | undefined {
  return isApiError(error) && error.code !== null ? entryForCode(error.code)?.key : undefined;
}

/** /userCenter/infoEnt/realName: organisation real-name by the legal representative's SMS, a bank micro-payment or manual review. */
export function OrgRealNamePage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useAccountInfo();
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const [flowId, setFlowId] = useFlowParam();
  const [method, setMethod] = useState<OrgMethod>('legalSms');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [amount, setAmount] = useState<AmountStage | null>(null);
  const [amountText, setAmountText] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [licence, setLicence] = useState<RealNameMaterial | null>(null);
  const [authorisation, setAuthorisation] = useState<RealNameMaterial | null>(null);
  const [countdown, startCountdown] = useCountdown();
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  const result = useFlowResult(flowId);
  const status = result.data?.status;

  const org = account.data?.userInfoOrg ?? null;
  const organizeId = params.get('organizeId') ?? org?.organizeId ?? null;
  const isCurrentOrg = org !== null && org.organizeId === organizeId;
  const records = useRecords(account.data !== undefined && flowId === null && organizeId !== null);

  // A flow of this organisation still under way (under review, verifying) is shown rather than a new form.
  useEffect(() => {
    if (flowId || !records.data || !organizeId) return;
    const open = records.data.list.find(
      (r) =>
        r.organizeType === 1 &&
        r.organizeId === organizeId &&
        r.status === 'pending' &&
        (r.step === 'awaitingReview' || r.step === 'verifying'),
    );
    if (open) setFlowId(open.flowId);
  }, [flowId, records.data, organizeId, setFlowId]);

  useEffect(() => {
    if (status === 'success') void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_PREFIX] });
  }, [status, queryClient]);

  const title = t(route.titleKey, { ns: 'route' });
  const page = (children: ReactNode, narrow = false) => (
    <div className="os-page" data-testid="realname-org-page">
      <BackHeader title={title} fallback={DONE} />
      <div className={narrow ? 'os-card os-card--form' : 'os-card'}>{children}</div>
    </div>
  );
  if (!account.data) return <PageLoading />;

  const reset = () => {
    setDraft(null);
    setAmount(null);
    setAmountText('');
    setAmountError(null);
    form.setFieldValue('code', undefined);
    setFlowId(null);
  };

  if (flowId) {
    return page(
      result.data ? (
        <FlowResult
          result={result.data}
          donePath={DONE}
          detailPath={`${DETAIL}?flowId=${encodeURIComponent(flowId)}`}
          onRetry={reset}
        />
      ) : result.isError ? (
        <Result status="warning" title={t('realNameFlow.loadFailed')} />
      ) : (
        <PageLoading />
      ),
    );
  }

  if (!organizeId)
    return page(<Alert type="info" showIcon title={t('realNameFlow.noOrg')} data-testid="realname-no-org" />);

  if (isCurrentOrg && org.hasRealName)
    return page(
      <Result
        status="success"
        title={t('realNameFlow.orgAlreadyVerified')}
        extra={
          <Button type="primary" onClick={() => void navigate(DONE)}>
            {t('realNameFlow.done')}
          </Button>
        }
      />,
    );

  /** The details every path sends; a draft flow that was not accepted is used again. */
  const submitDetails = async (extra: Partial<RealNameOrgRequest>) => {
    const base = await form.validateFields(['organizeName', 'uscc', 'legalName', 'legalIdNumber']);
    let current = draft && !draft.submitted ? draft : null;
    if (!current) {
      const flow = await startFlow({ organizeType: 1, organizeId });
      current = { flowId: flow.flowId, submitted: false, sandbox: flow.sandbox };
      setDraft(current);
    }
    const answer = await submitOrganization(current.flowId, {
      method,
      organizeName: base.organizeName.trim(),
      uscc: base.uscc.trim().toUpperCase(),
      legalName: base.legalName.trim(),
      legalIdNumber: base.legalIdNumber.trim().toUpperCase(),
      ...extra,
    });
    setDraft({ ...current, submitted: true, sandbox: answer.sandbox });
    return answer;
  };

  /** Runs an action; a failed form validation says nothing more, an API error goes to the one handler. */
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      if (isApiError(error)) handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const sendLegalCode = () =>
    run(async () => {
      const { legalMobile } = await form.validateFields(['legalMobile']);
      await submitDetails({ legalMobile: (legalMobile ?? '').trim() });
      startCountdown(60);
      toastSuccess(t('login.codeSent'));
    });

  const confirmLegal = () =>
    run(async () => {
      if (!draft?.submitted) {
        form.setFields([{ name: 'code', errors: [t('realNameFlow.sendFirst')] }]);
        return;
      }
      const { code } = await form.validateFields(['code']);
      await confirmCode(draft.flowId, code ?? '');
      setFlowId(draft.flowId);
    });

  const startBank = () =>
    run(async () => {
      const { bankAccount } = await form.validateFields(['bankAccount']);
      const answer = await submitDetails({ bankAccount: (bankAccount ?? '').replace(/\s+/g, '') });
      setAmount({
        flowId: answer.flowId,
        sandboxAmountCents: answer.sandboxAmountCents,
        triesLeft: MAX_AMOUNT_ATTEMPTS,
      });
    });

  const submitAmount = () =>
    run(async () => {
      if (!amount) return;
      const cents = amountToCents(amountText);
      if (cents === null) {
        setAmountError(t('realNameFlow.amountFormat'));
        return;
      }
      setAmountError(null);
      try {
        await confirmAmount(amount.flowId, cents);
        setFlowId(amount.flowId);
      } catch (error) {
        const key = errorKey(error);
        if (key === 'realName.amountWrong') {
          const left = amount.triesLeft - 1;
          setAmount({ ...amount, triesLeft: left });
          setAmountError(t('realNameFlow.amountWrong', { count: left }));
        } else if (key === 'realName.amountTooMany') {
          setFlowId(amount.flowId);
        } else {
          setAmountError(error instanceof Error ? error.message : String(error));
        }
      }
    });

  const submitManual = () =>
    run(async () => {
      await form.validateFields(['organizeName', 'uscc', 'legalName', 'legalIdNumber']);
      if (!licence || !authorisation) {
        setMissing(true);
        return;
      }
      setMissing(false);
      const answer = await submitDetails({
        licenceFileKey: licence.fileKey,
        authorisationFileKey: authorisation.fileKey,
      });
      setFlowId(answer.flowId);
    });

  const required: Rule = { required: true, message: t('realNameFlow.required') };

  if (amount) {
    return page(
      <div data-testid="realname-amount-stage">
        <SandboxNotice sandbox={draft?.sandbox} />
        <Typography.Title level={5}>{t('realNameFlow.amountTitle')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('realNameFlow.amountText')}</Typography.Paragraph>
        {amount.sandboxAmountCents !== undefined ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('realNameFlow.sandboxAmount', {
              amount: (amount.sandboxAmountCents / 100).toFixed(2),
            })}
            data-testid="realname-sandbox-amount"
          />
        ) : null}
        <Form layout="vertical">
          <Form.Item
            label={t('realNameFlow.amount')}
            validateStatus={amountError ? 'error' : undefined}
            help={amountError ?? t('realNameFlow.triesLeft', { count: amount.triesLeft })}
          >
            <Input
              prefix="¥"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              placeholder="0.00"
              maxLength={4}
              data-testid="realname-amount"
            />
          </Form.Item>
          <Button
            type="primary"
            loading={busy}
            onClick={() => void submitAmount()}
            data-testid="realname-amount-submit"
          >
            {t('realNameFlow.submit')}
          </Button>
        </Form>
      </div>,
      true,
    );
  }

  return page(
    <>
      <SandboxNotice sandbox={draft?.sandbox} />
      <Alert type="info" showIcon title={t('realNameFlow.orgHint')} style={{ marginBottom: 16 }} />
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          isCurrentOrg ? { organizeName: org.organizeName, uscc: org.uscc } : { organizeName: '', uscc: '' }
        }
        onValuesChange={(changed: Partial<Values>) => {
          if (draft?.submitted && !('code' in changed)) setDraft(null);
        }}
        data-testid="realname-org-form"
      >
        <Form.Item
          name="organizeName"
          label={t('realNameFlow.orgName')}
          required
          rules={[checkRule(checkOrgName, language)]}
        >
          <Input maxLength={100} data-testid="realname-org-name" />
        </Form.Item>
        <Form.Item
          name="uscc"
          label={t('realNameFlow.uscc')}
          required
          rules={[checkRule(checkUscc, language)]}
        >
          <Input maxLength={18} data-testid="realname-org-uscc" />
        </Form.Item>
        <Form.Item name="legalName" label={t('realNameFlow.legalName')} rules={[required]}>
          <Input maxLength={50} data-testid="realname-legal-name" />
        </Form.Item>
        <Form.Item
          name="legalIdNumber"
          label={t('realNameFlow.legalIdNumber')}
          required
          rules={[checkRule(checkResidentId, language)]}
          validateTrigger="onBlur"
        >
          <Input maxLength={18} data-testid="realname-legal-id" />
        </Form.Item>
        <Divider />
        <Form.Item label={t('realNameFlow.method')}>
          <Segmented<OrgMethod>
            value={method}
            onChange={(v) => {
              setMethod(v);
              setDraft(null);
            }}
            options={(['legalSms', 'bank', 'manual'] as const).map((m) => ({
              value: m,
              label: <span data-testid={`realname-method-${m}`}>{t(`realNameFlow.method_${m}`)}</span>,
            }))}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">{t(`realNameFlow.methodHint_${method}`)}</Typography.Paragraph>
        {method === 'legalSms' ? (
          <>
            <Form.Item
              name="legalMobile"
              label={t('realNameFlow.legalMobile')}
              required
              rules={[checkRule(checkMobile, language)]}
            >
              <Input maxLength={11} inputMode="numeric" data-testid="realname-legal-mobile" />
            </Form.Item>
            <CodeField
              language={language}
              countdown={countdown}
              sending={busy}
              onSend={() => void sendLegalCode()}
            />
            <Button
              type="primary"
              block
              loading={busy}
              onClick={() => void confirmLegal()}
              data-testid="realname-org-submit"
            >
              {t('realNameFlow.submit')}
            </Button>
          </>
        ) : null}
        {method === 'bank' ? (
          <>
            <Form.Item
              name="bankAccount"
              label={t('realNameFlow.bankAccount')}
              rules={[required, { pattern: /^[\d\s]{8,40}$/, message: t('realNameFlow.bankAccountFormat') }]}
            >
              <Input maxLength={40} inputMode="numeric" data-testid="realname-bank-account" />
            </Form.Item>
            <Button
              type="primary"
              block
              loading={busy}
              onClick={() => void startBank()}
              data-testid="realname-org-submit"
            >
              {t('realNameFlow.bankSubmit')}
            </Button>
          </>
        ) : null}
        {method === 'manual' ? (
          <>
            <Form.Item label={t('realNameFlow.licence')} required extra={t('realNameFlow.materialRule')}>
              <MaterialPicker kind="licence" value={licence} onChange={setLicence} />
            </Form.Item>
            <Form.Item
              label={t('realNameFlow.authorisation')}
              required
              extra={t('realNameFlow.materialRule')}
            >
              <MaterialPicker kind="authorisation" value={authorisation} onChange={setAuthorisation} />
            </Form.Item>
            {missing ? (
              <Alert
                type="error"
                showIcon
                title={t('realNameFlow.materialMissing')}
                style={{ marginBottom: 16 }}
              />
            ) : null}
            <Button
              type="primary"
              block
              loading={busy}
              onClick={() => void submitManual()}
              data-testid="realname-org-submit"
            >
              {t('realNameFlow.manualSubmit')}
            </Button>
          </>
        ) : null}
      </Form>
    </>,
    true,
  );
}
