import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown in the personal space: these functions belong to an organisation. */
export function OrgOnlyNotice() {
  const { t } = useTranslation();
  return <Alert type="info" showIcon title={t('members.orgOnly')} data-testid="members-org-only" />;
}

/** Shown when the caller lacks the permission point the screen needs (the server refuses anyway). */
export function NoPermissionNotice() {
  const { t } = useTranslation();
  return (
    <Alert type="warning" showIcon title={t('members.noPermission')} data-testid="members-no-permission" />
  );
}
