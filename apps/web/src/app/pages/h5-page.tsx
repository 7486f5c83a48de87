import { MobileOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { findRoute, MOBILE_BASE } from '../route-table';
import { useSystemConfig } from '../../hooks/use-system-config';
import { SESSION_STORAGE_KEYS, writeStorage } from '../../lib/storage';

/** The mobile base path /h5/*: a simple mobile frame until the H5 pages are built. */
export function H5Page() {
  const { t } = useTranslation();
  const location = useLocation();
  const config = useSystemConfig();
  const desktopPath = location.pathname.slice(MOBILE_BASE.length) || '/';
  const route = findRoute(desktopPath);
  const title = route ? t(route.titleKey, { ns: 'route' }) : null;
  return (
    <div className="os-h5" data-testid="h5-page">
      <header className="os-h5__bar">{config.systemName ?? t('app.defaultName')}</header>
      <Result
        icon={<MobileOutlined />}
        title={t('h5.title')}
        subTitle={
          <>
            <p>{t('h5.notice')}</p>
            {title ? <p data-testid="h5-route-title">{t('h5.page', { title })}</p> : null}
          </>
        }
        extra={
          <Button
            type="primary"
            onClick={() => {
              writeStorage(SESSION_STORAGE_KEYS.forceDesktop, '1', 'session');
              window.location.assign(`${desktopPath}${location.search}`);
            }}
            data-testid="h5-desktop"
          >
            {t('h5.desktop')}
          </Button>
        }
      />
    </div>
  );
}
