import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  numberSignatures,
  orderedFindings,
  summarise,
  verdictTitleKey,
  type VerifyReport,
} from '../model/verify-report';
import { FindingList } from './findings';

/**
 * The overall verdict of a report: icon, title and one line on what it means; when it is not valid, the
 * decisive findings of each signature that is not, so the reason is read without opening a card.
 */
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
  const failing = numberSignatures(report.signatures).filter(
    (n) => n.status === 'invalid' || n.status === 'indeterminate',
  );
  return (
    <div
      className={`os-verify-verdict os-verify-tone--${tone}${big ? ' os-verify-verdict--big' : ''}`}
      data-testid="verify-verdict"
      data-verdict={s.verdict}
    >
      <Icon className="os-verify-verdict__icon" />
      <div className="os-verify-verdict__body">
        <h2 className="os-verify-verdict__title" data-testid="verify-verdict-title">
          {t(`verify.${verdictTitleKey(s)}`)}
        </h2>
        <p className="os-verify-verdict__text">
          {t(`verify.verdictText.${verdictTitleKey(s).replace('verdict.', '')}`, {
            total: s.total,
            invalid: s.invalid,
            indeterminate: s.indeterminate,
          })}
          {s.warnings > 0 && s.verdict !== 'no-signatures'
            ? ` ${t('verify.warningsText', { count: s.warnings })}`
            : ''}
        </p>
        {failing.length > 0 ? (
          <div className="os-verify-verdict__why" data-testid="verify-verdict-why">
            {failing.map((n) => (
              <FindingList
                key={n.index}
                prefix={t('verify.signatureLabel', { no: n.no })}
                findings={orderedFindings(n.sig).filter((f) => f.severity === n.sig.verdict)}
              />
            ))}
          </div>
        ) : null}
      </div>
      {extra ? <div className="os-verify-verdict__extra">{extra}</div> : null}
    </div>
  );
}
