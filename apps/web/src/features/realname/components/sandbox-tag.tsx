import { ExperimentOutlined } from '@ant-design/icons';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** The sandbox identity verifier checks nothing real: every page that uses it says so. */
export function SandboxNotice({ sandbox }: { sandbox: boolean | undefined }) {
  const { t } = useTranslation();
  if (!sandbox) return null;
  return (
    <Alert
      type="warning"
      showIcon
      icon={<ExperimentOutlined />}
      title={t('realNameFlow.sandboxTitle')}
      description={t('realNameFlow.sandboxText')}
      data-testid="realname-sandbox"
      style={{ marginBottom: 16 }}
    />
  );
}
