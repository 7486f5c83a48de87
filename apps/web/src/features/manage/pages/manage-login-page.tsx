import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { operatorLogin, type OperatorLoginResponse } from '../api/operator-api';
import { MANAGE_HOME_PATH, storeOperatorSession } from '../model/operator-session';

interface LoginForm {
  username: string;
  password: string;
}

/** The operator console login: username and password, errors (wrong password, locked) shown in place. */
export function ManageLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginForm>();
  const login = useMutation<OperatorLoginResponse, Error, LoginForm>({
    mutationFn: (v) => operatorLogin(v.username.trim(), v.password),
    onSuccess: (data) => {
      storeOperatorSession(data.operatorToken, data.operator.name || data.operator.username);
      void navigate(MANAGE_HOME_PATH, { replace: true });
    },
  });

  useEffect(() => {
    document.title = t('manage.loginTitle');
  }, [t]);

  return (
    <div className="os-manage-login" data-testid="manage-login-page" style={styles.page}>
      <Card style={styles.card}>
        <Typography.Title level={3} style={{ textAlign: 'center' }}>
          {t('manage.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {t('manage.loginSubtitle')}
        </Typography.Paragraph>
        {login.error ? (
          <Alert
            type="error"
            showIcon
            data-testid="manage-login-error"
            title={login.error.message}
            style={{ marginBottom: 16 }}
          />
        ) : null}
        <Form<LoginForm>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => login.mutate(v)}
          data-testid="manage-login-form"
        >
          <Form.Item
            name="username"
            label={t('manage.username')}
            rules={[{ required: true, whitespace: true, message: t('manage.usernameRequired') }]}
          >
            <Input data-testid="manage-login-username" autoComplete="username" maxLength={64} />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('manage.password')}
            rules={[{ required: true, message: t('manage.passwordRequired') }]}
          >
            <Input.Password
              data-testid="manage-login-password"
              autoComplete="current-password"
              maxLength={128}
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={login.isPending}
            data-testid="manage-login-submit"
          >
            {t('manage.login')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

const styles = {
  page: {
    minHeight: '100vh',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    background: '#f3f5f8',
  },
  card: { width: 400 },
} as const;
