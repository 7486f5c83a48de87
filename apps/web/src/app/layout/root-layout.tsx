import { useQueryClient } from '@tanstack/react-query';
import { Layout } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { WarningDialog } from '../../components/warning-dialog';
import { identityOf, SESSION_QUERY_PREFIX, useAccountInfo, useLoginStatus } from '../../hooks/use-session';
import { useIsMobile } from '../../hooks/use-is-mobile';
import { useSystemConfig } from '../../hooks/use-system-config';
import { onRealNameRequired } from '../../lib/events';
import { clearSession } from '../../lib/session';
import { decideGuard } from '../guard';
import { isMobilePath } from '../mobile';
import { desktopTargetOf } from '../mobile-routes';
import { isRouteHandle } from '../page-props';
import type { ResolvedRoute } from '../route-table';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { KfWidget } from './kf-widget';
import { SealFlowHeader } from './seal-flow-header';

// The info-change tip and dialog concern organisation sessions only: their own chunk.
const InfoChangeNotice = lazy(() =>
  import('../../features/realname/components/info-change-notice').then((m) => ({
    default: m.InfoChangeNotice,
  })),
);

// The seal-expiry tip loads its own chunk: most visitors never see it.
const SealExpiryTip = lazy(() =>
  import('../../features/seals/components/seal-expiry-tip').then((m) => ({
    default: m.SealExpiryTip,
  })),
);

/** The deepest matched route of the table, if the address is one of its routes. */
function useCurrentRoute(): ResolvedRoute | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return handle.route;
  }
  return null;
}

/**
 * The frame of every page: runs the route guard, keeps the session honest, and picks the header,
 * footer and customer-service widget from the route's meta flags.
 */
export function RootLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const route = useCurrentRoute();
  const meta = route?.meta ?? null;
  const isMobile = useIsMobile();
  const config = useSystemConfig();
  const account = useAccountInfo();
  const loginStatus = useLoginStatus();
  const [realNameOpen, setRealNameOpen] = useState(false);

  // A stored token the server no longer accepts: forget it and the user's cached data.
  useEffect(() => {
    if (loginStatus.data && !loginStatus.data.valid) {
      clearSession();
      queryClient.removeQueries({ queryKey: [SESSION_QUERY_PREFIX] });
    }
  }, [loginStatus.data, queryClient]);

  useEffect(() => onRealNameRequired(() => setRealNameOpen(true)), []);

  const systemName = config.systemName ?? t('app.defaultName');
  const title = route ? t(route.titleKey, { ns: 'route' }) : null;
  useEffect(() => {
    document.title = title && route?.path !== '/' ? `${title} - ${systemName}` : systemName;
  }, [title, systemName, route?.path]);

  const identity = identityOf(account.data);
  const decision = decideGuard({
    path: location.pathname,
    search: location.search,
    meta,
    hasToken: account.isLoggedIn,
    identityType: identity,
    userInfoLoaded: account.isSuccess || account.isError,
    isMobile,
  });

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  // The mobile pages, on a phone; a wide screen (or a session that chose the desktop site) gets the
  // desktop page they stand for.
  if (isMobilePath(location.pathname))
    return isMobile ? (
      <Outlet />
    ) : (
      <Navigate to={desktopTargetOf(location.pathname, location.search)} replace />
    );

  const showHeader = !meta?.isNoHeader;
  const showFooter = !meta?.hideFoot && !meta?.sealFlow;
  const showKf = !meta?.hideKf;
  const realNamePath = identity === 1 ? '/userCenter/infoEnt/realName' : '/userCenter/infoPersonal/realName';

  return (
    <Layout className="os-shell">
      {showHeader ? (
        meta?.sealFlow ? (
          <SealFlowHeader />
        ) : (
          <AppHeader activeTab={meta?.headerTab ?? null} />
        )
      ) : null}
      <div className="os-top-tips">
        {identity === 1 ? (
          <Suspense fallback={null}>
            <InfoChangeNotice showTip={showHeader} />
          </Suspense>
        ) : null}
        {showHeader && account.isLoggedIn ? (
          <Suspense fallback={null}>
            <SealExpiryTip />
          </Suspense>
        ) : null}
      </div>
      <Layout.Content className={meta?.noHigh ? 'os-content os-content--bleed' : 'os-content'}>
        {decision.kind === 'wait' ? <PageLoading /> : <Outlet />}
      </Layout.Content>
      {showFooter ? <AppFooter /> : null}
      {showKf ? <KfWidget /> : null}
      <WarningDialog
        open={realNameOpen}
        testId="realname-required-dialog"
        title={t('realNameDialog.title')}
        content={t('realNameDialog.content')}
        confirmText={t('realNameDialog.action')}
        onCancel={() => setRealNameOpen(false)}
        onConfirm={() => {
          setRealNameOpen(false);
          void navigate(realNamePath);
        }}
      />
    </Layout>
  );
}
