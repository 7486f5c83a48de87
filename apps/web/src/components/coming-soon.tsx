import { ToolOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The page of a route that is not built yet: always inside the real layout, never blank. */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Result
      className="os-coming-soon"
      icon={<ToolOutlined />}
      title={<span data-testid="coming-soon-title">{t('placeholder.title')}</span>}
      subTitle={t('placeholder.subtitle', { title })}
      extra={
        <Link to="/">
          <Button type="primary">{t('common.backHome')}</Button>
        </Link>
      }
      data-testid="coming-soon"
    />
  );
}
