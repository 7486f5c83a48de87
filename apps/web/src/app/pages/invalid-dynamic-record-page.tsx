import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../page-props';

/**
 * /invalidDynamicRecord: where an address that was made for a moment lands once it is gone — a short link
 * from a text message that expired, a dynamic page that was withdrawn. It says so and offers the way on.
 */
export function InvalidDynamicRecordPage(_props: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="os-page" data-testid="invalid-dynamic-record">
      <div className="os-card">
        <Result
          status="404"
          title={t('invalidDynamic.title')}
          subTitle={t('invalidDynamic.text')}
          extra={[
            <Button
              key="sign"
              type="primary"
              onClick={() => void navigate('/signService/signByMe')}
              data-testid="invalid-dynamic-sign"
            >
              {t('invalidDynamic.toSign')}
            </Button>,
            <Button key="home" onClick={() => void navigate('/')} data-testid="invalid-dynamic-home">
              {t('invalidDynamic.home')}
            </Button>,
          ]}
        />
      </div>
    </div>
  );
}
