import { Alert, Button } from 'antd';
import {
  AppstoreOutlined,
  HomeOutlined,
  LeftOutlined,
  SignatureOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Suspense, useEffect, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { continueOnDesktop } from '../../lib/device';
import { useAccountInfo } from '../../hooks/use-session';
import { useLanguage } from '../../hooks/use-language';
import { useSystemConfig } from '../../hooks/use-system-config';
import { lazyPage } from '../lazy-page';
import {
  desktopPathOf,
  findMobileRoute,
  mobileHref,
  type MobilePageKey,
  type MobileRoute,
  type MobileTab,
} from '../mobile-routes';
import { PAGES } from '../page-registry';
import type { PageProps } from '../page-props';
import { FROM_PARAM } from '../mobile';
import { findRoute } from '../route-table';
import './mobile.css';

/** The phone pages of their own, one chunk each. */
const MOBILE_PAGES: Record<MobilePageKey, LazyExoticComponent<ComponentType<PageProps>>> = {
  home: lazyPage(() => import('../../features/home/pages/mobile-home-page').then((m) => m.MobileHomePage)),
  sealList: lazyPage(() =>
    import('../../features/seals/pages/mobile-seal-list-page').then((m) => m.MobileSealListPage),
  ),
  sealDetail: lazyPage(() =>
    import('../../features/seals/pages/mobile-seal-detail-page').then((m) => m.MobileSealDetailPage),
  ),
  signList: lazyPage(() =>
    import('../../features/sign/pages/mobile-sign-list-page').then((m) => m.MobileSignListPage),
  ),
  signRecords: lazyPage(() =>
    import('../../features/sign/pages/mobile-sign-list-page').then((m) => m.MobileSignRecordsPage),
  ),
  me: lazyPage(() => import('../../features/account/pages/mobile-me-page').then((m) => m.MobileMePage)),
};

const TABS: { key: MobileTab; path: string; icon: ReactNode }[] = [
  { key: 'home', path: '/', icon: <HomeOutlined /> },
  { key: 'seals', path: '/sealService/mySealList', icon: <AppstoreOutlined /> },
  { key: 'sign', path: '/signService/signByMe', icon: <SignatureOutlined /> },
  { key: 'me', path: '/userCenter', icon: <UserOutlined /> },
];

/** The home route: what an address without a phone page shows (with the desktop offer). */
const HOME = findMobileRoute('/') as MobileRoute;

/**
 * The frame of every phone page under the mobile base path: a title bar with "back" and the language, the
 * page, and a bottom tab bar. It signs the visitor in first where the page needs it, and shows desktop pages
 * that are responsive inside the same frame.
 */
export function MobileShell() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const config = useSystemConfig();
  const account = useAccountInfo();
  const [language, setLanguage] = useLanguage();
  const desktopPath = desktopPathOf(location.pathname);
  // Dialogs and drawers render outside the frame: the body says they are on a phone.
  useEffect(() => {
    document.body.classList.add('os-m-body');
    return () => document.body.classList.remove('os-m-body');
  }, []);
  const found = findMobileRoute(desktopPath);
  const route = found ?? HOME;
  const from = route.path === '/' ? new URLSearchParams(location.search).get(FROM_PARAM) : null;

  if (!found) {
    // No phone page: the mobile home, which offers the desktop page (spec section 2).
    const asked = `?${FROM_PARAM}=${encodeURIComponent(`${desktopPath}${location.search}`)}`;
    return <Navigate to={`${mobileHref('/')}${asked}`} replace />;
  }
  if (route.needLogin && !account.isLoggedIn) {
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`${mobileHref('/login')}?redirect=${encodeURIComponent(back)}`} replace />;
  }

  const Page = 'mobile' in route.page ? MOBILE_PAGES[route.page.mobile] : PAGES[route.page.desktop];
  const title = route.titleKey.startsWith('mobile.')
    ? t(route.titleKey)
    : route.path === '/'
      ? (config.systemName ?? t('app.defaultName'))
      : t(route.titleKey, { ns: 'route' });
  const desktopRoute = findRoute(desktopPath);
  const pageRoute = {
    path: desktopRoute?.path ?? route.path,
    titleKey: desktopRoute?.titleKey ?? route.titleKey,
    parent: desktopRoute?.parent ?? null,
  };
  const bare =
    route.bare === true ||
    (route.bareWith !== undefined && new URLSearchParams(location.search).has(route.bareWith));
  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(mobileHref('/'));
  };

  return (
    <div className={bare ? 'os-m os-m--bare' : 'os-m'} data-testid="mobile-shell" data-route={route.path}>
      <header className="os-m__bar">
        {route.tab && !bare ? (
          <span className="os-m__bar-side" />
        ) : (
          <button
            type="button"
            className="os-m__icon-btn"
            onClick={back}
            aria-label={t('mobile.back')}
            data-testid="mobile-back"
          >
            <LeftOutlined />
          </button>
        )}
        <h1 className="os-m__title" data-testid="mobile-title">
          {title}
        </h1>
        <button
          type="button"
          className="os-m__icon-btn os-m__lang"
          title={t('mobile.languageTitle')}
          onClick={() => setLanguage(language === 'en' ? 'zh-CN' : 'en')}
          data-testid="mobile-language"
        >
          {t('mobile.language')}
        </button>
      </header>
      <main className="os-m__main">
        {from ? <DesktopOnly from={from} /> : null}
        <Suspense fallback={<PageLoading />}>
          <Page route={pageRoute} />
        </Suspense>
      </main>
      {bare ? null : (
        <nav className="os-m__tabs" data-testid="mobile-tabs">
          {TABS.map((tab) => (
            <Link
              key={tab.key}
              to={mobileHref(tab.path)}
              className={route.tab === tab.key ? 'os-m__tab os-m__tab--active' : 'os-m__tab'}
              data-testid={`mobile-tab-${tab.key}`}
              aria-current={route.tab === tab.key ? 'page' : undefined}
            >
              <span className="os-m__tab-icon">{tab.icon}</span>
              <span>{t(`mobile.tabs.${tab.key}`)}</span>
            </Link>
          ))}
        </nav>
      )}
    </div>
  );
}

/**
 * An address without a phone page, kept by the mobile home as `?from=`: it is named, and the desktop site
 * is offered; choosing it returns to that very address and stays chosen for the browser session.
 */
function DesktopOnly({ from }: { from: string }) {
  const { t } = useTranslation();
  const route = findRoute(from);
  return (
    <Alert
      className="os-m-section"
      type="info"
      showIcon
      data-testid="mobile-desktop-only"
      title={t('mobile.desktopOnly.title', { title: route ? t(route.titleKey, { ns: 'route' }) : from })}
      description={
        <>
          <p style={{ margin: '4px 0 8px' }}>{t('mobile.desktopOnly.text')}</p>
          <Button
            type="primary"
            block
            onClick={() => continueOnDesktop(from)}
            data-testid="mobile-continue-desktop"
          >
            {t('mobile.desktopOnly.action')}
          </Button>
        </>
      }
    />
  );
}
