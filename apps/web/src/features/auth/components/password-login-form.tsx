import { LockOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleApiError } from '../../../lib/api-error-handler';
import type { LoginResponse } from '../../../lib/contracts';
import { login } from '../api/auth';
import { MobileField } from './mobile-field';

interface Values {
  mobile: string;
  password: string;
}

export function PasswordLoginForm({ onSuccess }: { onSuccess: (result: LoginResponse) => void }) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (values: Values) => {
    setSubmitting(true);
    try {
      onSuccess(await login({ mobile: values.mobile.trim(), password: values.password }));
    } catch (error) {
      handleApiError(error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<Values> size="large" onFinish={(v) => void submit(v)} data-testid="password-login-form">
      <MobileField testId="login-password-mobile" autoComplete="username" />
      <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('login.passwordPlaceholder')}
          maxLength={32}
          autoComplete="current-password"
          data-testid="login-password"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-password-submit">
        {t('login.submit')}
      </Button>
    </Form>
  );
}
