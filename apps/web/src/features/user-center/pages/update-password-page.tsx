import { checkPassword, checkSmsCode, messageFor, SMS_CODE_LENGTH } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Segmented, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../../lib/page';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { useCountdown } from '../../../hooks/use-countdown';
import { SESSION_QUERY_PREFIX, useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import { sendMobileModifyCode, updatePassword, verifyCode } from '../api/password';

type Method = 'old' | 'sms';

interface Values {
  oldPassword?: string;
  code?: string;
  newPassword: string;
  confirmPassword: string;
}

/** /userCenter/updatePassword: set a first password, or change it with the old one or an SMS code. */
export function UpdatePasswordPage(_props: PageProps) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useAccountInfo();
  const [form] = Form.useForm<Values>();
  const [method, setMethod] = useState<Method>('old');
  const [flowId, setFlowId] = useState<string | null>(null);
  const [countdown, startCountdown] = useCountdown();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  if (!account.data) return <PageLoading />;
  const person = account.data.userInfoPerson;
  const hasPassword = person.hasPassword;
  const title = hasPassword ? t('password.titleChange') : t('password.titleSet');
  const effectiveMethod: Method | 'set' = hasPassword ? method : 'set';

  const passwordRule = checkRule(checkPassword, language);
  const requiredRule: Rule = { required: true, message: t('password.required') };

  const send = async () => {
    setSending(true);
    try {
      const result = await sendMobileModifyCode();
      setFlowId(result.flowId);
      startCountdown(result.resendAfterSeconds);
    } catch (error) {
      handleApiError(error);
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: Values) => {
    setSubmitting(true);
    try {
      if (effectiveMethod === 'sms') {
        if (!flowId) {
          form.setFields([{ name: 'code', errors: [messageFor('account.codeExpired', language)] }]);
          return;
        }
        await verifyCode(flowId, (values.code ?? '').trim());
        await updatePassword({ newPassword: values.newPassword, flowId });
      } else if (effectiveMethod === 'old') {
        await updatePassword({ newPassword: values.newPassword, oldPassword: values.oldPassword });
      } else {
        await updatePassword({ newPassword: values.newPassword });
      }
      toastSuccess(hasPassword ? t('password.success') : t('password.setSuccess'));
      form.resetFields();
      setFlowId(null);
      await queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_PREFIX] });
      void navigate('/userCenter/infoPersonal');
    } catch (error) {
      handleApiError(error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="os-page" data-testid="update-password-page">
      <BackHeader title={title} fallback="/userCenter/infoPersonal" />
      <div className="os-card os-card--form">
        {hasPassword ? (
          <Segmented<Method>
            className="os-password__method"
            value={method}
            onChange={(v) => {
              setMethod(v);
              form.resetFields();
            }}
            options={[
              { value: 'old', label: <span data-testid="password-method-old">{t('password.byOld')}</span> },
              { value: 'sms', label: <span data-testid="password-method-sms">{t('password.bySms')}</span> },
            ]}
          />
        ) : (
          <Alert type="info" showIcon title={t('password.setHint')} className="os-password__hint" />
        )}
        <Form<Values>
          form={form}
          layout="vertical"
          className="os-password__form"
          onFinish={(v) => void submit(v)}
          data-testid="password-form"
        >
          {effectiveMethod === 'old' ? (
            <Form.Item name="oldPassword" label={t('password.oldPassword')} rules={[requiredRule]}>
              <Input.Password
                placeholder={t('password.oldPasswordPlaceholder')}
                autoComplete="current-password"
                data-testid="password-old"
              />
            </Form.Item>
          ) : null}
          {effectiveMethod === 'sms' ? (
            <Form.Item
              label={t('password.code')}
              extra={t('password.smsTo', { mobile: person.registerMobile })}
              required
            >
              <Space.Compact block>
                <Form.Item name="code" noStyle rules={[checkRule(checkSmsCode, language)]}>
                  <Input maxLength={SMS_CODE_LENGTH} inputMode="numeric" data-testid="password-code" />
                </Form.Item>
                <Button
                  onClick={() => void send()}
                  loading={sending}
                  disabled={countdown > 0}
                  data-testid="password-send-code"
                >
                  {countdown > 0 ? t('login.resend', { seconds: countdown }) : t('login.sendCode')}
                </Button>
              </Space.Compact>
            </Form.Item>
          ) : null}
          <Form.Item name="newPassword" label={t('password.newPassword')} required rules={[passwordRule]}>
            <Input.Password
              placeholder={t('password.newPasswordPlaceholder')}
              maxLength={32}
              autoComplete="new-password"
              data-testid="password-new"
            />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('password.confirmPassword')}
            dependencies={['newPassword']}
            rules={[
              requiredRule,
              ({ getFieldValue }) => ({
                validator: async (_, value: string | undefined) => {
                  if (value && value !== getFieldValue('newPassword'))
                    throw new Error(t('password.mismatch'));
                },
              }),
            ]}
          >
            <Input.Password
              placeholder={t('password.confirmPasswordPlaceholder')}
              maxLength={32}
              autoComplete="new-password"
              data-testid="password-confirm"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="password-submit">
            {t('password.submit')}
          </Button>
        </Form>
      </div>
    </div>
  );
}
