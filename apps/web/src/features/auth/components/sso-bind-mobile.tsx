import { SafetyOutlined } from '@ant-design/icons';
import { checkSmsCode, SMS_CODE_LENGTH } from '@openseal/core';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountdown } from '../../../hooks/use-countdown';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import { sendLoginCode } from '../api/auth';
import { checkSsoMobile, type SsoResult } from '../api/sso';
import { MobileField } from './mobile-field';
import { SandboxOutbox } from './sandbox-outbox';

interface Values {
  mobile: string;
  code: string;
}

/**
 * operateType 1, the account-source completion: the provider vouched for no mobile, so the person proves
 * one with a login SMS code and the flow continues with that account.
 */
export function SsoBindMobile({
  flowId,
  onAnswer,
  onFailure,
}: {
  flowId: string;
  onAnswer: (result: SsoResult) => void;
  onFailure: (error: unknown) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const [form] = Form.useForm<Values>();
  const [countdown, startCountdown] = useCountdown();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [sandboxMobile, setSandboxMobile] = useState<string | null>(null);

  const send = async () => {
    try {
      await form.validateFields(['mobile']);
    } catch {
      return;
    }
    const mobile = String(form.getFieldValue('mobile') ?? '').trim();
    setSending(true);
    try {
      const result = await sendLoginCode(mobile);
      startCountdown(result.resendAfterSeconds);
      setSandboxMobile(result.sandbox ? mobile : null);
      toastSuccess(t('login.codeSent'));
    } catch (error) {
      handleApiError(error);
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: Values) => {
    setSubmitting(true);
    try {
      onAnswer(await checkSsoMobile({ flowId, mobile: values.mobile.trim(), code: values.code.trim() }));
    } catch (error) {
      onFailure(error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div data-testid="sso-bind-mobile">
      <h1 className="os-login__title">{t('sso.bindTitle')}</h1>
      <p className="os-login__subtitle">{t('sso.bindHint')}</p>
      <Form form={form} size="large" onFinish={(v) => void submit(v)}>
        <MobileField testId="sso-bind-mobile-input" autoComplete="tel" />
        <Form.Item>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={[checkRule(checkSmsCode, language)]}>
              <Input
                prefix={<SafetyOutlined />}
                placeholder={t('login.codePlaceholder')}
                maxLength={SMS_CODE_LENGTH}
                inputMode="numeric"
                autoComplete="one-time-code"
                data-testid="sso-bind-code"
              />
            </Form.Item>
            <Button
              onClick={() => void send()}
              loading={sending}
              disabled={countdown > 0}
              className="os-login__send"
              data-testid="sso-bind-send-code"
            >
              {countdown > 0 ? t('login.resend', { seconds: countdown }) : t('login.sendCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        {sandboxMobile ? <SandboxOutbox mobile={sandboxMobile} /> : null}
        <Button type="primary" htmlType="submit" block loading={submitting} data-testid="sso-bind-submit">
          {t('sso.bindSubmit')}
        </Button>
      </Form>
    </div>
  );
}
