import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The colour of each status across the seal status sets (spec section 4); unknown ones are grey. */
const COLOURS: Record<string, string> = {
  normal: 'green',
  made: 'green',
  changed: 'green',
  inEffect: 'green',
  success: 'green',
  good: 'green',
  pendingReview: 'gold',
  pendingProduction: 'blue',
  preCreated: 'default',
  making: 'blue',
  renewing: 'blue',
  inProgress: 'blue',
  changeInApproval: 'gold',
  frozen: 'cyan',
  disabled: 'orange',
  hold: 'orange',
  expired: 'volcano',
  rejected: 'red',
  returned: 'red',
  failed: 'red',
  voided: 'red',
  scrapped: 'red',
  revoked: 'default',
  withdrawn: 'default',
  terminated: 'default',
};

export type StatusSet =
  'sealStatus' | 'workOrderStatus' | 'changeStatus' | 'authStatus' | 'renewalStatus' | 'certStatus';

/** A coloured tag with the status's name; `data-status` carries the wire value for tests. */
export function StatusTag({ set, value }: { set: StatusSet; value: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOURS[value] ?? 'default'} data-testid={`status-${set}`} data-status={value}>
      {t(`sealCommon.${set}.${value}`)}
    </Tag>
  );
}
