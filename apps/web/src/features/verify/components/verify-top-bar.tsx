import { GlobalOutlined, HomeOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../../hooks/use-language';
import { useSystemConfig } from '../../../hooks/use-system-config';

/**
 * The slim bar of the public verification page, which has no site header (spec section 2): the platform's
 * name, a way home and the language. The embeddable `/independence` variant shows none of it.
 */
export function VerifyTopBar() {
  const { t } = useTranslation();
  const config = useSystemConfig('VERIFY_SIGN');
  const [language, setLanguage] = useLanguage();
  return (
    <div className="os-verify-topbar" data-testid="verify-top-bar">
      <Link to="/" className="os-verify-topbar__brand">
        {config.logo ? <img src={config.logo} alt="" /> : null}
        <span className="os-verify-topbar__name">{config.systemName ?? t('app.defaultName')}</span>
        <span className="os-verify-topbar__suffix">| {t('verify.brand')}</span>
      </Link>
      <Space size={4} className="os-verify-topbar__actions">
        <Link to="/" aria-label={t('verify.home')}>
          <Button type="text" icon={<HomeOutlined />}>
            <span className="os-verify-topbar__label">{t('verify.home')}</span>
          </Button>
        </Link>
        <Button
          type="text"
          icon={<GlobalOutlined />}
          data-testid="verify-language"
          onClick={() => setLanguage(language === 'en' ? 'zh-CN' : 'en')}
        >
          {language === 'en' ? '中文' : 'English'}
        </Button>
      </Space>
    </div>
  );
}
