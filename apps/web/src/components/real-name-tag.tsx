import { REAL_NAME_STATUS } from '@openseal/core';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export function RealNameTag({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation();
  const [color, label] =
    status === REAL_NAME_STATUS.verified
      ? ['success', t('realName.verified')]
      : status === REAL_NAME_STATUS.pending
        ? ['processing', t('realName.pending')]
        : status === REAL_NAME_STATUS.failed
          ? ['error', t('realName.failed')]
          : ['default', t('realName.unverified')];
  return (
    <Tag color={color} variant="filled" data-testid={testId} data-status={status}>
      {label}
    </Tag>
  );
}
