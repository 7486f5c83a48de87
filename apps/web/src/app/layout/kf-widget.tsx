import { CustomerServiceOutlined } from '@ant-design/icons';
import { FloatButton, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSystemConfig } from '../../hooks/use-system-config';
import { DocLink } from '../../components/doc-link';

/** The customer-service widget on public pages (spec section 1); hidden where a route sets hideKf. */
export function KfWidget() {
  const { t } = useTranslation();
  const config = useSystemConfig();
  const content = (
    <div className="os-kf" data-testid="kf-panel">
      <p>{t('kf.text')}</p>
      {config.helpDocUrl ? <DocLink url={config.helpDocUrl}>{t('kf.helpDoc')}</DocLink> : null}
    </div>
  );
  return (
    <Popover title={t('kf.title')} content={content} trigger="click" placement="leftBottom">
      <FloatButton
        icon={<CustomerServiceOutlined />}
        type="primary"
        tooltip={t('kf.title')}
        data-testid="kf-button"
        style={{ insetInlineEnd: 28, insetBlockEnd: 96 }}
      />
    </Popover>
  );
}
