import { CheckCircleOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import type { PageProps } from '../../../lib/page';
import { SESSION_QUERY_PREFIX, useAccessToken } from '../../../hooks/use-session';
import type { LoginResponse } from '../../../lib/contracts';
import { toastSuccess } from '../../../lib/feedback';
import { storeAccessToken } from '../../../lib/session';
import { PasswordLoginForm } from '../components/password-login-form';
import { SmsLoginForm } from '../components/sms-login-form';
import { SsoLoginEntry } from '../components/sso-login-entry';
import { afterLoginTarget } from '../model/redirect';

export function LoginPage(_props: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const token = useAccessToken();
  const target = afterLoginTarget(params.get('redirect'));

  const onSuccess = (result: LoginResponse) => {
    queryClient.removeQueries({ queryKey: [SESSION_QUERY_PREFIX] });
    storeAccessToken(result.accessToken);
    toastSuccess(result.isNewAccount ? t('login.welcomeNew') : t('login.success'));
    void navigate(target, { replace: true });
  };

  if (token) return <Navigate to={target} replace />;

  return (
    <div className="os-login" data-testid="login-page">
      <div className="os-login__panel">
        <section className="os-login__hero">
          <h2>{t('login.heroTitle')}</h2>
          <p>{t('login.heroText')}</p>
          <ul>
            <li>
              <CheckCircleOutlined /> {t('login.heroPoint1')}
            </li>
            <li>
              <CheckCircleOutlined /> {t('login.heroPoint2')}
            </li>
            <li>
              <CheckCircleOutlined /> {t('login.heroPoint3')}
            </li>
          </ul>
        </section>
        <Card className="os-login__card" variant="borderless">
          <h1 className="os-login__title">{t('login.title')}</h1>
          <p className="os-login__subtitle">{t('login.subtitle')}</p>
          <Tabs
            defaultActiveKey="sms"
            items={[
              {
                key: 'sms',
                label: <span data-testid="login-tab-sms">{t('login.tabSms')}</span>,
                children: <SmsLoginForm onSuccess={onSuccess} />,
              },
              {
                key: 'password',
                label: <span data-testid="login-tab-password">{t('login.tabPassword')}</span>,
                children: <PasswordLoginForm onSuccess={onSuccess} />,
              },
            ]}
          />
          <SsoLoginEntry target={target} />
          <p className="os-login__agreement">{t('login.agreement')}</p>
        </Card>
      </div>
    </div>
  );
}
