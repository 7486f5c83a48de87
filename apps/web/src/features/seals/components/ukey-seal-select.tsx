import { contracts } from '@openseal/core';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMySeals } from '../api/seals';

/**
 * The organisation's normal UKey-carrier seals to choose from (GET /v1/accounts/seals, carrier ukey).
 * Codes already chosen that are no longer listed stay shown by their code.
 */
export function UkeySealSelect({
  value,
  onChange,
  enabled = true,
  testId = 'ukey-seal-select',
}: {
  value?: string[];
  onChange?: (codes: string[]) => void;
  enabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const seals = useMySeals({ carrier: 'ukey', status: 'normal', pageNum: 1, pageSize: 100 }, enabled);
  const listed = seals.data?.list ?? [];
  const options = listed.map((s) => ({
    value: s.sealCode,
    label: `${s.name}（${s.sealCode}）`,
  }));
  for (const code of value ?? [])
    if (!listed.some((s) => s.sealCode === code)) options.push({ value: code, label: code });
  return (
    <Select
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      options={options}
      loading={seals.isFetching}
      maxCount={contracts.UKEY_LIMITS.maxSealsPerKey}
      placeholder={t('ukeyMng.bindDialog.sealsPlaceholder')}
      notFoundContent={t('ukeyMng.bindDialog.noUkeySeals')}
      optionFilterProp="label"
      data-testid={testId}
    />
  );
}

/** A seal's name by its code, among the organisation's UKey seals (the code itself when not listed). */
export function useUkeySealNames(enabled = true): (code: string) => string {
  const seals = useMySeals({ carrier: 'ukey', pageNum: 1, pageSize: 100 }, enabled);
  return (code: string) => seals.data?.list.find((s) => s.sealCode === code)?.name ?? code;
}
