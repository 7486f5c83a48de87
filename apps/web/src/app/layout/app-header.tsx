import { BarChartOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Layout, Menu } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { DocLink } from '../../components/doc-link';
import { Link, useLocation, useNavigate } from 'react-router';
import { identityOf, isSpaceRealNamed, useAccountInfo } from '../../hooks/use-session';
import { useSystemConfig } from '../../hooks/use-system-config';
import { emitRealNameRequired } from '../../lib/events';
import { loginAddress } from '../../lib/navigation';
import type { NavKey } from '../../lib/system-config';
import { topNavTarget, visibleTopNav } from '../nav-menu';
import { Brand } from './brand';
import { LanguageSwitch } from './language-switch';
import { MobileNav, useNarrowScreen } from './mobile-nav';

// The account dropdown (and its dialogs) only matters once logged in: its own chunk.
const UserMenu = lazy(() =>
  import('../../features/account/components/user-menu').then((m) => ({ default: m.UserMenu })),
);

export const DATA_BOARD_PATH = '/manage/data-check-chart/generate';

/**
 * The top bar: brand, the main navigation (MINOR_CONFIG applies), help, data board, language, account.
 * On a phone-wide screen the brand stays and everything else folds into the menu button's drawer.
 */
export function AppHeader({ activeTab }: { activeTab: NavKey | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const config = useSystemConfig();
  const account = useAccountInfo();
  const items = visibleTopNav({ config, identityType: identityOf(account.data) });
  const narrow = useNarrowScreen();
  const selected =
    activeTab ?? items.find((i) => i.path !== '/' && location.pathname.startsWith(i.path))?.key ?? null;

  const onNavigate = (key: string) => {
    const item = items.find((i) => i.key === key);
    if (!item) return;
    const target = topNavTarget(item, account.isLoggedIn, isSpaceRealNamed(account.data));
    if (typeof target === 'string') void navigate(target);
    else emitRealNameRequired();
  };

  const accountEntry = account.isLoggedIn ? (
    <Suspense fallback={<span className="os-user-trigger os-user-trigger--loading" />}>
      <UserMenu />
    </Suspense>
  ) : (
    <Button
      type="primary"
      block={narrow}
      data-testid="header-login"
      onClick={() => void navigate(loginAddress(`${location.pathname}${location.search}`))}
    >
      {t('header.login')}
    </Button>
  );

  if (narrow) {
    return (
      <Layout.Header className="os-header os-header--narrow" data-testid="app-header">
        <div className="os-header__inner">
          <Brand />
          <MobileNav
            items={items}
            selected={selected}
            onNavigate={onNavigate}
            helpDocUrl={config.helpDocUrl || null}
            dataBoardPath={config.dataBoardEnabled ? DATA_BOARD_PATH : null}
            account={accountEntry}
          />
        </div>
      </Layout.Header>
    );
  }

  return (
    <Layout.Header className="os-header" data-testid="app-header">
      <div className="os-header__inner">
        <Brand />
        <Menu
          className="os-header__nav"
          mode="horizontal"
          selectedKeys={selected ? [selected] : []}
          data-testid="top-nav"
          items={items.map((item) => ({
            key: item.key,
            label: <span data-testid={`nav-${item.key}`}>{t(`nav.${item.key}`)}</span>,
          }))}
          onClick={({ key }) => onNavigate(key)}
        />
        <div className="os-header__tools">
          {config.helpDocUrl ? (
            <DocLink
              className="os-header__link"
              url={config.helpDocUrl}
              testId="help-doc-link"
              title={t('header.helpDoc')}
            >
              <QuestionCircleOutlined /> <span className="os-header__link-text">{t('header.helpDoc')}</span>
            </DocLink>
          ) : null}
          {config.dataBoardEnabled ? (
            <Link
              className="os-header__link"
              to={DATA_BOARD_PATH}
              data-testid="data-board-link"
              title={t('header.dataBoard')}
            >
              <BarChartOutlined /> <span className="os-header__link-text">{t('header.dataBoard')}</span>
            </Link>
          ) : null}
          <LanguageSwitch />
          {accountEntry}
        </div>
      </div>
    </Layout.Header>
  );
}
