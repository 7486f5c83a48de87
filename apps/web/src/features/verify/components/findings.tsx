import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  InfoCircleFilled,
} from '@ant-design/icons';
import { verifyReasonText } from '@openseal/core';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../hooks/use-language';
import {
  describeChange,
  isVisibleChange,
  type SignatureChange,
  type SignatureReport,
  type Tone,
} from '../model/verify-report';

export const TONE_ICONS: Record<Tone, typeof CheckCircleFilled> = {
  valid: CheckCircleFilled,
  warning: ExclamationCircleFilled,
  invalid: CloseCircleFilled,
};

const SEVERITY_TONE = { invalid: 'invalid', indeterminate: 'warning', info: 'info' } as const;

/** Catalogued findings, each in the page's language from the shared catalogue, coloured by severity. */
export function FindingList({
  findings,
  prefix,
  testId,
}: {
  findings: SignatureReport['findings'];
  prefix?: string;
  testId?: string;
}) {
  const [language] = useLanguage();
  if (findings.length === 0) return null;
  return (
    <ul className="os-verify-findings" data-testid={testId}>
      {findings.map((f, i) => {
        const tone = SEVERITY_TONE[f.severity];
        const Icon = tone === 'info' ? InfoCircleFilled : TONE_ICONS[tone];
        return (
          <li key={i} className={`os-verify-tone--${tone}`} data-code={f.code} data-severity={f.severity}>
            <Icon style={{ color: 'var(--tone)' }} />
            <span>
              {prefix ? <strong>{prefix} </strong> : null}
              {verifyReasonText(f.code, language, f.params)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The changes made after a signature: what, where, what it shows, in which revision, and whether permitted. */
export function ChangeList({ changes, testId }: { changes: readonly SignatureChange[]; testId?: string }) {
  const { t } = useTranslation();
  if (changes.length === 0) return null;
  return (
    <ul className="os-verify-changes" data-testid={testId}>
      {changes.map((c, i) => {
        const line = describeChange(c);
        const tone = !c.allowed
          ? 'invalid'
          : isVisibleChange(c) && c.kind !== 'signature'
            ? 'warning'
            : 'valid';
        return (
          <li
            key={i}
            className={`os-verify-tone--${tone}`}
            data-kind={c.kind}
            data-allowed={c.allowed}
            data-page={c.page}
          >
            <div className="os-verify-changes__head">
              <span>{t(`verify.changeLine.${line.key}`, line.params)}</span>
              <span className="os-verify-changes__tag">
                {c.allowed ? t('verify.change.allowed') : t('verify.change.notAllowed')}
              </span>
            </div>
            {line.quote !== undefined ? (
              <q className="os-verify-changes__quote" data-testid="verify-change-text">
                {line.quote}
              </q>
            ) : null}
            <div className="os-verify-changes__meta">
              {t('verify.changeLine.revision', { no: c.revision + 1 })}
              {c.subtype && c.kind !== 'annotation' ? ` · ${c.subtype}` : ''}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
