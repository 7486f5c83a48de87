import { BarChartOutlined, GlobalOutlined, MenuOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { Language } from '@openseal/core';
import { Button, Drawer, Menu, Segmented } from 'antd';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useLanguage } from '../../hooks/use-language';
import { MOBILE_MAX_WIDTH } from '../../lib/device';
import type { TopNavItem } from '../nav-menu';
import { DocLink } from '../../components/doc-link';

const NARROW_QUERY = `(max-width: ${MOBILE_MAX_WIDTH}px)`;

function subscribe(callback: () => void): () => void {
  const media = window.matchMedia(NARROW_QUERY);
  media.addEventListener('change', callback);
  return () => media.removeEventListener('change', callback);
}

/**
 * Whether the window is phone-wide (the width alone: a desktop browser narrowed to a phone's width gets
 * the folded header too, and a phone that chose the desktop site still has a phone's width).
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW_QUERY).matches,
    () => false,
  );
}

const LANGUAGES: { value: Language; label: string }[] = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en', label: 'English' },
];

export interface MobileNavProps {
  items: readonly TopNavItem[];
  selected: string | null;
  /** The top navigation's own click handler (login first, the real-name dialog, or the page). */
  onNavigate: (key: string) => void;
  helpDocUrl: string | null;
  dataBoardPath: string | null;
  /** The account entry: the account dropdown when signed in, the login button otherwise. */
  account: ReactNode;
}

/**
 * The header's tools on a phone: a menu button opening a drawer with the account entry, the top navigation,
 * help, the data board and the language. The drawer closes by itself when the address changes.
 */
export function MobileNav({
  items,
  selected,
  onNavigate,
  helpDocUrl,
  dataBoardPath,
  account,
}: MobileNavProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const [language, setLanguage] = useLanguage();
  // The address the drawer was opened on: it is open only while the address stays the same.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const here = `${location.pathname}${location.search}`;
  const open = openedAt === here;
  const close = () => setOpenedAt(null);

  return (
    <>
      <Button
        type="text"
        className="os-mobile-nav__toggle"
        icon={<MenuOutlined />}
        aria-label={t('mobileNav.open')}
        aria-expanded={open}
        data-testid="mobile-nav-toggle"
        onClick={() => setOpenedAt(open ? null : here)}
      />
      <Drawer
        open={open}
        onClose={close}
        placement="right"
        size="min(320px, 86vw)"
        className="os-mobile-nav"
        title={t('mobileNav.title')}
        closable={{ 'aria-label': t('mobileNav.close') }}
      >
        <div className="os-mobile-nav__body" data-testid="mobile-nav">
          <div className="os-mobile-nav__account" data-testid="mobile-nav-account">
            {account}
          </div>
          <Menu
            className="os-mobile-nav__menu"
            mode="inline"
            selectedKeys={selected ? [selected] : []}
            data-testid="mobile-nav-menu"
            items={items.map((item) => ({
              key: item.key,
              label: <span data-testid={`mobile-nav-${item.key}`}>{t(`nav.${item.key}`)}</span>,
            }))}
            onClick={({ key }) => {
              close();
              onNavigate(key);
            }}
          />
          {helpDocUrl || dataBoardPath ? (
            <div className="os-mobile-nav__links">
              {helpDocUrl ? (
                <DocLink url={helpDocUrl} onClick={close} testId="mobile-nav-help">
                  <QuestionCircleOutlined /> {t('header.helpDoc')}
                </DocLink>
              ) : null}
              {dataBoardPath ? (
                <Link to={dataBoardPath} onClick={close} data-testid="mobile-nav-data-board">
                  <BarChartOutlined /> {t('header.dataBoard')}
                </Link>
              ) : null}
            </div>
          ) : null}
          <div className="os-mobile-nav__language">
            <span className="os-mobile-nav__label">
              <GlobalOutlined /> {t('header.language')}
            </span>
            <Segmented<Language>
              block
              value={language}
              options={LANGUAGES.map((l) => ({
                value: l.value,
                label: <span data-testid={`mobile-nav-language-${l.value}`}>{l.label}</span>,
              }))}
              onChange={(value) => setLanguage(value)}
              data-testid="mobile-nav-language"
            />
          </div>
        </div>
      </Drawer>
    </>
  );
}
