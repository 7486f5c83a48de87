import { ExportOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { findPluginRoute, isSafeTarget, usePluginRoutes } from '../api/plugin-routes';

/** Unknown paths: a configured plugin route (an iframe inside the layout, or a link), else home. */
export function PluginRoutePage() {
  const { t } = useTranslation();
  const location = useLocation();
  const plugins = usePluginRoutes();
  if (plugins.isLoading) return <PageLoading />;
  const found = findPluginRoute(plugins.routes, location.pathname);
  if (!found || !isSafeTarget(found.target)) return <Navigate to="/" replace />;
  if (found.kind === 'link' && found.target.startsWith('/')) return <Navigate to={found.target} replace />;

  return (
    <div className="os-page os-page--wide" data-testid="plugin-route-page" data-kind={found.kind}>
      <BackHeader title={found.title} />
      {found.kind === 'iframe' ? (
        <iframe
          className="os-plugin-frame"
          src={found.target}
          title={found.title}
          data-testid="plugin-iframe"
        />
      ) : (
        <div className="os-card">
          <Result
            icon={<ExportOutlined />}
            title={t('plugin.externalTitle')}
            subTitle={t('plugin.externalText')}
            extra={
              <Button
                type="primary"
                href={found.target}
                target="_blank"
                rel="noreferrer"
                data-testid="plugin-link"
              >
                {t('common.open')}
              </Button>
            }
          />
        </div>
      )}
    </div>
  );
}
