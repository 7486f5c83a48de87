import { checkMobile, checkResidentId } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Result } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { useCountdown } from '../../../hooks/use-countdown';
import { SESSION_QUERY_PREFIX, useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import type { PageProps } from '../../../lib/page';
import { confirmCode, startFlow, submitPerson, useFlowResult } from '../api/realname';
import { CodeField } from '../components/code-field';
import { FlowResult } from '../components/flow-result';
import { SandboxNotice } from '../components/sandbox-tag';
import { useFlowParam } from '../model/flow-param';

interface Values {
  name: string;
  idNumber: string;
  mobile: string;
  code?: string;
}

/** A flow of this page: created on "get code"; once the code is sent it cannot take new details. */
interface Draft {
  flowId: string;
  sent: boolean;
  sandbox: boolean;
}

const DETAIL = '/userCenter/infoPersonal/realNameAuditDetail';
const DONE = '/userCenter/infoPersonal';

/** /userCenter/infoPersonal/realName: name, resident ID and mobile, confirmed by SMS, then the result. */
export function PersonRealNamePage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useAccountInfo();
  const [form] = Form.useForm<Values>();
  const [flowId, setFlowId] = useFlowParam();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [countdown, startCountdown] = useCountdown();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const result = useFlowResult(flowId);
  const status = result.data?.status;

  // Success changes the person's name and status: reload the session data the header and pages show.
  useEffect(() => {
    if (status === 'success') void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_PREFIX] });
  }, [status, queryClient]);

  const title = t(route.titleKey, { ns: 'route' });
  const header = <BackHeader title={title} fallback={DONE} />;
  if (!account.data) return <PageLoading />;
  const person = account.data.userInfoPerson;

  if (flowId) {
    return (
      <div className="os-page" data-testid="realname-person-page">
        {header}
        <div className="os-card">
          {result.data ? (
            <FlowResult
              result={result.data}
              donePath={DONE}
              detailPath={`${DETAIL}?flowId=${encodeURIComponent(flowId)}`}
              onRetry={() => {
                setDraft(null);
                form.setFieldValue('code', undefined);
                setFlowId(null);
              }}
            />
          ) : result.isError ? (
            <Result status="warning" title={t('realNameFlow.loadFailed')} />
          ) : (
            <PageLoading />
          )}
        </div>
      </div>
    );
  }

  if (person.hasRealName) {
    return (
      <div className="os-page" data-testid="realname-person-page">
        {header}
        <div className="os-card">
          <Result
            status="success"
            title={t('realNameFlow.alreadyVerified')}
            extra={
              <Button type="primary" onClick={() => void navigate(DONE)}>
                {t('realNameFlow.done')}
              </Button>
            }
            data-testid="realname-already"
          />
        </div>
      </div>
    );
  }

  const required: Rule = { required: true, message: t('realNameFlow.required') };

  const send = async () => {
    let values: Values;
    try {
      values = await form.validateFields(['name', 'idNumber', 'mobile']);
    } catch {
      return;
    }
    setSending(true);
    try {
      // A sent flow is past its draft step; a new code needs a new flow.
      let current = draft && !draft.sent ? draft : null;
      if (!current) {
        const flow = await startFlow({ organizeType: 2 });
        current = { flowId: flow.flowId, sent: false, sandbox: flow.sandbox };
        setDraft(current);
      }
      const sent = await submitPerson(current.flowId, {
        name: values.name.trim(),
        idNumber: values.idNumber.trim().toUpperCase(),
        mobile: values.mobile.trim(),
      });
      setDraft({ ...current, sent: true, sandbox: sent.sandbox });
      startCountdown(sent.resendAfterSeconds);
      toastSuccess(t('login.codeSent'));
    } catch (error) {
      handleApiError(error);
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: Values) => {
    if (!draft?.sent) {
      form.setFields([{ name: 'code', errors: [t('realNameFlow.sendFirst')] }]);
      return;
    }
    setSubmitting(true);
    try {
      await confirmCode(draft.flowId, values.code ?? '');
      setFlowId(draft.flowId);
    } catch (error) {
      handleApiError(error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="os-page" data-testid="realname-person-page">
      {header}
      <div className="os-card os-card--form">
        <SandboxNotice sandbox={draft?.sandbox} />
        <Alert type="info" showIcon title={t('realNameFlow.personHint')} style={{ marginBottom: 16 }} />
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{ mobile: checkMobile(person.registerMobile).ok ? person.registerMobile : '' }}
          onFinish={(v) => void submit(v)}
          onValuesChange={(changed: Partial<Values>) => {
            // New details after a sent code need a new flow and code.
            if (draft?.sent && ('name' in changed || 'idNumber' in changed || 'mobile' in changed))
              setDraft(null);
          }}
          data-testid="realname-person-form"
        >
          <Form.Item name="name" label={t('realNameFlow.name')} rules={[required]}>
            <Input
              maxLength={50}
              placeholder={t('realNameFlow.namePlaceholder')}
              data-testid="realname-name"
            />
          </Form.Item>
          <Form.Item
            name="idNumber"
            label={t('realNameFlow.idNumber')}
            required
            rules={[checkRule(checkResidentId, language)]}
            validateTrigger="onBlur"
          >
            <Input
              maxLength={18}
              placeholder={t('realNameFlow.idNumberPlaceholder')}
              data-testid="realname-id-number"
            />
          </Form.Item>
          <Form.Item
            name="mobile"
            label={t('realNameFlow.mobile')}
            required
            rules={[checkRule(checkMobile, language)]}
          >
            <Input maxLength={11} inputMode="numeric" data-testid="realname-mobile" />
          </Form.Item>
          <CodeField
            language={language}
            countdown={countdown}
            sending={sending}
            onSend={() => void send()}
            extra={draft?.sent ? t('realNameFlow.codeSentTo') : undefined}
          />
          <Button type="primary" htmlType="submit" loading={submitting} block data-testid="realname-submit">
            {t('realNameFlow.submit')}
          </Button>
        </Form>
      </div>
    </div>
  );
}
