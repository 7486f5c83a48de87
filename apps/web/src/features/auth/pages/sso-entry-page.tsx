import { LoadingOutlined } from '@ant-design/icons';
import { Button, Card, Result, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { messageFor } from '@openseal/core';
import { isApiError } from '../../../lib/api-client';
import { normaliseLanguage } from '../../../lib/language';
import { beginSso, useSsoStatus, type SsoLoginType } from '../api/sso';
import { afterLoginTarget } from '../model/redirect';
import { isWebAddress, ssoReturnAddress } from '../model/sso-outcome';

/**
 * /haiNanSSO: the entry a provincial government portal links to. It starts single sign-on through the
 * platform's relying party at once (`?loginType=person|organization`, default person; `?redirect=` an
 * address of this site to land on) and sends the browser to the identity provider, which returns it to
 * /ssoResult like the login page's buttons. Without a configured provider it says so and offers the
 * ordinary login.
 */
export function SsoEntryPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const loginType: SsoLoginType = params.get('loginType') === 'organization' ? 'organization' : 'person';
  const target = afterLoginTarget(params.get('redirect') ?? '/');
  const status = useSsoStatus();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  const go = async () => {
    setFailure(null);
    try {
      const { url } = await beginSso({ loginType, redirectUrl: ssoReturnAddress(target) });
      if (!isWebAddress(url)) throw new Error('not a web address');
      window.location.assign(url);
    } catch (error) {
      setFailure(
        isApiError(error) ? error.message : messageFor('server.error', normaliseLanguage(i18n.language)),
      );
    }
  };

  // Started once, as soon as the provider is known to be configured.
  const enabled = status.data?.enabled === true;
  useEffect(() => {
    if (!enabled || started.current) return;
    started.current = true;
    void go();
  });

  const loginLink = `/login?redirect=${encodeURIComponent(target)}`;
  const otherLogin = (
    <Link to={loginLink} data-testid="sso-entry-login">
      <Button>{t('sso.entryOtherLogin')}</Button>
    </Link>
  );

  return (
    <div style={{ maxWidth: 560, margin: '48px auto', padding: '0 16px' }} data-testid="sso-entry-page">
      <Card>
        {status.isError || status.data?.enabled === false ? (
          <Result
            status="info"
            title={t('sso.entryDisabledTitle')}
            subTitle={t('sso.entryDisabledText')}
            extra={otherLogin}
            data-testid="sso-entry-disabled"
          />
        ) : failure ? (
          <Result
            status="warning"
            title={t('sso.entryFailedTitle')}
            subTitle={failure}
            extra={
              <Space wrap>
                <Button type="primary" onClick={() => void go()} data-testid="sso-entry-retry">
                  {t('sso.entryRetry')}
                </Button>
                {otherLogin}
              </Space>
            }
            data-testid="sso-entry-failed"
          />
        ) : (
          <Result
            icon={<LoadingOutlined />}
            title={t('sso.entryTitle')}
            subTitle={t('sso.entryRedirecting')}
            extra={otherLogin}
            data-testid="sso-entry-redirecting"
          />
        )}
      </Card>
    </div>
  );
}
