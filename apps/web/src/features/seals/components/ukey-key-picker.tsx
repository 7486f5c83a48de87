import { messageFor } from '@openseal/core';
import { useQuery } from '@tanstack/react-query';
import { Radio, Space, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { normaliseLanguage } from '../../../lib/language';
import { isAgentError, ukeyAgent, type AgentKey } from '../api/ukey-agent';
import { UKEYS_KEY } from '../api/ukeys';
import { describeUkeyError, detectionOf, keyChoosable, type UkeyProblem } from '../model/ukey-problems';
import { UkeyProblemAlert } from './ukey-problem-alert';

/** The keys the local agent sees now (GET /v1/keys); asked afresh each time, since keys come and go. */
export function useAgentKeys(enabled: boolean) {
  return useQuery({
    queryKey: [...UKEYS_KEY, 'agent', 'keys'],
    queryFn: () => ukeyAgent.keys(),
    enabled,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

/** The problem of a detection, if any: the agent's error, no key, or several keys without one chosen. */
export function detectionProblem(
  keys: ReturnType<typeof useAgentKeys>,
  language: string,
  wantedSerial?: string | null,
): UkeyProblem | null {
  const lang = normaliseLanguage(language);
  if (keys.error) {
    if (isAgentError(keys.error)) return describeUkeyError(keys.error);
    return describeUkeyError({ kind: 'api', code: null, message: keys.error.message });
  }
  if (!keys.data) return null;
  const found = detectionOf(keys.data, wantedSerial);
  if (found.state === 'none')
    return describeUkeyError({
      kind: 'api',
      code: 7001,
      message: messageFor('ukey.notInserted', lang),
      data: { reason: 'notInserted' },
    });
  if (found.state === 'wrong')
    return describeUkeyError({
      kind: 'api',
      code: 7002,
      message: messageFor('ukey.wrongSerial', lang),
      data: { expected: found.expected, inserted: found.keys.map((k) => k.serial) },
    });
  if (found.state === 'several')
    return describeUkeyError({ kind: 'api', code: 7003, message: messageFor('ukey.multiple', lang) });
  return null;
}

/**
 * Detected keys to choose from: with one key it is chosen at once; with several the "several UKeys"
 * message shows and the user picks one. Locked keys cannot be chosen, nor, when a specific key is wanted,
 * any other (the "wrong serial" message names the one to insert).
 */
export function UkeyKeyPicker({
  keys,
  value,
  onChange,
  boundSerials = [],
  wantedSerial,
}: {
  keys: ReturnType<typeof useAgentKeys>;
  value: string | null;
  onChange: (serial: string) => void;
  boundSerials?: string[];
  wantedSerial?: string | null;
}) {
  const { t, i18n } = useTranslation();
  if (keys.isFetching && !keys.data)
    return (
      <div style={{ padding: '16px 0', textAlign: 'center' }} data-testid="ukey-detecting">
        <Spin size="small" />{' '}
        <span style={{ marginInlineStart: 8 }}>{t('ukeyMng.bindDialog.detecting')}</span>
      </div>
    );
  const problem = detectionProblem(keys, i18n.language, wantedSerial);
  const redetect = () => void keys.refetch();
  const list: AgentKey[] = keys.data ?? [];
  return (
    <div data-testid="ukey-key-picker">
      {problem ? (
        <div style={{ marginBottom: 12 }}>
          <UkeyProblemAlert problem={problem} onRedetect={redetect} testId="ukey-detect-problem" />
        </div>
      ) : null}
      {list.length > 0 ? (
        <Radio.Group
          value={value}
          onChange={(e) => onChange(e.target.value as string)}
          style={{ width: '100%' }}
          data-testid="ukey-key-options"
        >
          <Space direction="vertical" style={{ width: '100%' }}>
            {list.map((k) => (
              <div
                key={k.serial}
                data-testid="ukey-key-option"
                data-serial={k.serial}
                data-checked={String(value === k.serial)}
                data-choosable={String(keyChoosable(k, wantedSerial))}
              >
                <Radio
                  value={k.serial}
                  disabled={!keyChoosable(k, wantedSerial)}
                  style={{
                    width: '100%',
                    padding: '8px 12px',
                    border: '1px solid var(--os-border)',
                    borderRadius: 6,
                  }}
                >
                  <Space wrap size={6}>
                    <strong>{k.label || k.serial}</strong>
                    <span style={{ color: 'var(--os-text-2)' }}>
                      {t('ukeyMng.col.serial')}：{k.serial}
                    </span>
                    <span style={{ color: 'var(--os-text-2)' }}>
                      {t('ukeyMng.bindDialog.manufacturer')}：{k.manufacturer}
                    </span>
                    <Tag color={k.hasSealCertificate ? 'green' : 'default'}>
                      {t('ukeyMng.bindDialog.sealCert')}：
                      {k.hasSealCertificate
                        ? t('ukeyMng.bindDialog.hasCert')
                        : t('ukeyMng.bindDialog.noCert')}
                    </Tag>
                    {k.locked ? (
                      <Tag color="red">{t('ukeyMng.bindDialog.locked')}</Tag>
                    ) : (
                      <Tag>{t('ukeyMng.bindDialog.attemptsLeft', { count: k.attemptsLeft })}</Tag>
                    )}
                    {boundSerials.includes(k.serial) ? (
                      <Tag color="blue">{t('ukeyMng.bindDialog.alreadyBound')}</Tag>
                    ) : null}
                  </Space>
                </Radio>
              </div>
            ))}
          </Space>
        </Radio.Group>
      ) : null}
    </div>
  );
}
