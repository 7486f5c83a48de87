import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { summarise, type VerifyReport } from '../model/verify-report';

/** The overall verdict of a report: icon, title and one line on what it means. */
export function VerdictPanel({
  report,
  big = false,
  extra,
}: {
  report: Pick<VerifyReport, 'verdict' | 'signatures'>;
  big?: boolean;
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const s = summarise(report);
  const tone = s.verdict === 'valid' ? 'valid' : s.verdict === 'invalid' ? 'invalid' : 'warning';
  const Icon =
    tone === 'valid' ? CheckCircleFilled : tone === 'invalid' ? CloseCircleFilled : ExclamationCircleFilled;
  return (
    <div
      className={`os-verify-verdict os-verify-tone--${tone}${big ? ' os-verify-verdict--big' : ''}`}
      data-testid="verify-verdict"
      data-verdict={s.verdict}
    >
      <Icon className="os-verify-verdict__icon" />
      <div style={{ flex: 1 }}>
        <h2 className="os-verify-verdict__title">{t(`verify.verdict.${s.verdict}`)}</h2>
        <p className="os-verify-verdict__text">
          {t(`verify.verdictText.${s.verdict}`, { total: s.total, invalid: s.invalid })}
          {s.warnings > 0 && s.verdict !== 'no-signatures'
            ? ` ${t('verify.warningsText', { count: s.warnings })}`
            : ''}
        </p>
      </div>
      {extra}
    </div>
  );
}
