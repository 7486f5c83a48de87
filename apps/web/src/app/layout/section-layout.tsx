import { Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { identityOf, useAccountInfo } from '../../hooks/use-session';
import { activeMenuPath, sectionMenu } from '../nav-menu';
import type { ResolvedRoute } from '../route-table';

/** User centre, seal service, sign service and the open-platform centres: a side menu and the page. */
export function SectionLayout({ section }: { section: ResolvedRoute }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const account = useAccountInfo();
  const identity = identityOf(account.data);
  const items = sectionMenu(section, identity);
  const active = activeMenuPath(section, location.pathname, identity);
  return (
    <div className="os-section" data-testid={`section-${section.section ?? ''}`}>
      <aside className="os-section__side">
        <div className="os-section__title">{t(section.titleKey, { ns: 'route' })}</div>
        <Menu
          mode="inline"
          selectedKeys={active ? [active] : []}
          items={items.map((item) => ({
            key: item.path,
            label: <span data-testid={`side-${item.titleKey}`}>{t(item.titleKey, { ns: 'route' })}</span>,
          }))}
          onClick={({ key }) => void navigate(key)}
        />
      </aside>
      <main className="os-section__main">
        <Outlet />
      </main>
    </div>
  );
}
