import { CheckOutlined, RightOutlined } from '@ant-design/icons';
import { maskPhone } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { continueOnDesktop, mobileHref } from '../../../lib/device';
import { WarningDialog } from '../../../components/warning-dialog';
import { RealNameTag } from '../../../components/real-name-tag';
import { identityOf, SESSION_QUERY_PREFIX, useAccessToken, useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { reloadTo } from '../../../lib/navigation';
import type { PageProps } from '../../../lib/page';
import { clearSession, storeAccessToken } from '../../../lib/session';
import { handoverToAccount, logout, useOwnAccounts } from '../api/spaces';
import { safeRedirect } from '../model/safe-redirect';

function Row({ to, children, testId }: { to: string; children: ReactNode; testId: string }) {
  return (
    <Link to={to} className="os-m-list-row" data-testid={testId}>
      <span>{children}</span>
      <RightOutlined />
    </Link>
  );
}

/**
 * The user centre's basics on a phone: who is signed in, the spaces to switch between, personal
 * information, real-name verification, password, records, the desktop site, and logging out.
 */
export function MobileMePage(_props: PageProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = useAccessToken();
  const account = useAccountInfo();
  const accounts = useOwnAccounts(token, token !== null);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const [busy, setBusy] = useState(false);
  const info = account.data;
  if (!info) return <Spin style={{ display: 'block', padding: 48 }} />;
  const identity = identityOf(info);
  const person = info.userInfoPerson;
  const spaces = [
    ...(accounts.data?.personAccount ? [accounts.data.personAccount] : []),
    ...(accounts.data?.ownAccounts ?? []).filter((a) => a.type === 1),
  ];

  const switchTo = async (accountId: string) => {
    setBusy(true);
    try {
      const result = await handoverToAccount(accountId);
      storeAccessToken(result.accessToken);
      toastSuccess(t('account.switchSuccess'));
      reloadTo(mobileHref('/'));
    } catch (error) {
      handleApiError(error);
      setBusy(false);
    }
  };

  const doLogout = async () => {
    setBusy(true);
    try {
      const result = await logout();
      clearSession();
      queryClient.removeQueries({ queryKey: [SESSION_QUERY_PREFIX] });
      toastSuccess(t('account.logoutSuccess'));
      const target = safeRedirect(result.redirectUrl);
      reloadTo(target === '/' ? mobileHref('/') : target);
    } catch (error) {
      handleApiError(error);
      setBusy(false);
      setConfirmLogout(false);
    }
  };

  return (
    <div data-testid="mobile-me">
      <section className="os-m-card os-m-section">
        <div className="os-m-card__head">
          <h2 className="os-m-card__title" data-testid="mobile-me-name">
            {person.name || maskPhone(person.registerMobile)}
          </h2>
          <RealNameTag status={info.realNameStatus} testId="mobile-me-realname-status" />
        </div>
        <div className="os-m-card__meta" data-testid="mobile-me-mobile">
          {t('mobile.me.mobile')}: {maskPhone(person.registerMobile)}
        </div>
      </section>

      {spaces.length > 1 ? (
        <section className="os-m-section" data-testid="mobile-me-spaces">
          <div className="os-m-card__meta" style={{ margin: '0 4px 6px' }}>
            {t('mobile.me.spaces')}
          </div>
          {spaces.map((s) => (
            <button
              key={s.accountId}
              type="button"
              className="os-m-list-row"
              style={{ width: '100%', border: 0, textAlign: 'left' }}
              disabled={busy || s.chooseStatus}
              onClick={() => void switchTo(s.accountId)}
              data-testid="mobile-me-space"
              data-id={s.accountId}
            >
              <span style={{ overflowWrap: 'anywhere' }}>{s.name}</span>
              {s.chooseStatus ? <CheckOutlined style={{ color: 'var(--os-primary)' }} /> : <RightOutlined />}
            </button>
          ))}
        </section>
      ) : null}

      <section className="os-m-section">
        <Row to={mobileHref('/userCenter/infoPersonal')} testId="mobile-me-info">
          {t('mobile.me.personalInfo')}
        </Row>
        <Row to={mobileHref('/userCenter/infoPersonal/realName')} testId="mobile-me-realname">
          {t('mobile.me.realName')}
        </Row>
        {identity === 1 ? (
          <Row to={mobileHref('/userCenter/infoEnt/realName')} testId="mobile-me-org-realname">
            {t('mobile.me.orgRealName')}
          </Row>
        ) : null}
        <Row to={mobileHref('/userCenter/updatePassword')} testId="mobile-me-password">
          {t('mobile.me.password')}
        </Row>
      </section>
      <section className="os-m-section">
        <Row to={mobileHref('/signService/signRecord')} testId="mobile-me-records">
          {t('mobile.me.records')}
        </Row>
        <Row to={mobileHref('/verifySign')} testId="mobile-me-verify">
          {t('mobile.me.verify')}
        </Row>
      </section>
      <Button
        block
        size="large"
        className="os-m-section"
        onClick={() => continueOnDesktop('/userCenter')}
        data-testid="mobile-me-desktop"
      >
        {t('mobile.me.desktop')}
      </Button>
      <Button block size="large" danger onClick={() => setConfirmLogout(true)} data-testid="mobile-me-logout">
        {t('mobile.me.logout')}
      </Button>
      <WarningDialog
        open={confirmLogout}
        testId="mobile-logout-dialog"
        title={t('mobile.me.logout')}
        content={t('mobile.me.logoutConfirm')}
        confirmText={t('mobile.me.logout')}
        onCancel={() => setConfirmLogout(false)}
        confirmLoading={busy}
        onConfirm={() => void doLogout()}
      />
    </div>
  );
}
