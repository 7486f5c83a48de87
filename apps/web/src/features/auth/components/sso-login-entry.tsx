import { BankOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Divider, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageFor } from '@openseal/core';
import { isApiError } from '../../../lib/api-client';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastError } from '../../../lib/feedback';
import { normaliseLanguage } from '../../../lib/language';
import { beginSso, useSsoStatus, type SsoLoginType } from '../api/sso';
import { isWebAddress, ssoReturnAddress } from '../model/sso-outcome';

/**
 * "Log in with single sign-on", shown only when the server has a provider configured: starts a flow
 * and sends the browser to the provider, which returns it to /ssoResult with the flow id.
 */
export function SsoLoginEntry({ target }: { target: string }) {
  const { t, i18n } = useTranslation();
  const status = useSsoStatus();
  const [starting, setStarting] = useState<SsoLoginType | null>(null);
  if (!status.data?.enabled) return null;

  const start = async (loginType: SsoLoginType) => {
    setStarting(loginType);
    try {
      const { url } = await beginSso({ loginType, redirectUrl: ssoReturnAddress(target) });
      if (!isWebAddress(url)) throw new Error('not a web address');
      // The page is left for the provider; the button stays busy until it is gone.
      window.location.assign(url);
    } catch (error) {
      if (isApiError(error)) handleApiError(error);
      else toastError(messageFor('server.error', normaliseLanguage(i18n.language)), 3_000);
      setStarting(null);
    }
  };

  return (
    <div data-testid="sso-entry">
      <Divider plain>{t('sso.entryDivider')}</Divider>
      <Flex gap={12}>
        <Button
          block
          icon={<UserOutlined />}
          loading={starting === 'person'}
          disabled={starting !== null}
          onClick={() => void start('person')}
          data-testid="sso-login-person"
        >
          {t('sso.loginPerson')}
        </Button>
        <Button
          block
          icon={<BankOutlined />}
          loading={starting === 'organization'}
          disabled={starting !== null}
          onClick={() => void start('organization')}
          data-testid="sso-login-organization"
        >
          {t('sso.loginOrganization')}
        </Button>
      </Flex>
    </div>
  );
}
