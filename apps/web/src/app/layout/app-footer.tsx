import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { DocLink } from '../../components/doc-link';
import { Link } from 'react-router';
import { useSystemConfig } from '../../hooks/use-system-config';
import { DefaultEmblem } from './brand';

export function AppFooter() {
  const { t } = useTranslation();
  const config = useSystemConfig();
  const name = config.systemName ?? t('app.defaultName');
  return (
    <Layout.Footer className="os-footer" data-testid="app-footer">
      <div className="os-footer__inner">
        <div className="os-footer__brand">
          <DefaultEmblem size={28} />
          <span>{name}</span>
        </div>
        <nav className="os-footer__links">
          {config.helpDocUrl ? <DocLink url={config.helpDocUrl}>{t('footer.help')}</DocLink> : null}
          <Link to="/openPlatform">{t('footer.openPlatform')}</Link>
          <Link to="/verifySign">{t('footer.verify')}</Link>
        </nav>
        <p className="os-footer__statement">{t('footer.statement')}</p>
        <p className="os-footer__copyright">
          {t('footer.copyright', { year: new Date().getFullYear(), name })}
        </p>
      </div>
    </Layout.Footer>
  );
}
