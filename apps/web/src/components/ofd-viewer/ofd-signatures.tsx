import { Alert, Tag } from 'antd';
import type { OfdDocument, OfdSignatureCheck, OfdSignatureInfo } from '@openseal/ofd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../features/sign/model/format';

const TAG_COLOR = { valid: 'success', invalid: 'error', unverifiable: 'warning' } as const;
const ALERT_TYPE = { valid: 'success', invalid: 'error', unverifiable: 'warning' } as const;

/**
 * The signatures an OFD document carries, each checked in the browser by `@openseal/ofd` (the parts it
 * covers, its signed value, the signer's key) with its verdict and, when it fails, why. The signer's
 * certificate is shown, not matched against a trust list, and the panel says so.
 */
export function OfdSignatures({ doc, width }: { doc: OfdDocument; width: number }) {
  const { t } = useTranslation();
  const [checks, setChecks] = useState<OfdSignatureCheck[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setChecks(null);
    setFailed(false);
    doc
      .verifySignatures()
      .then((c) => live && setChecks(c))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [doc]);

  if (doc.signatures.length === 0) return null;
  const overall = failed
    ? 'unverifiable'
    : !checks
      ? null
      : checks.some((c) => c.verdict === 'invalid')
        ? 'invalid'
        : checks.every((c) => c.verdict === 'valid')
          ? 'valid'
          : 'unverifiable';
  return (
    <Alert
      type={overall ? ALERT_TYPE[overall] : 'info'}
      showIcon
      style={{ width }}
      data-testid="ofd-seals"
      data-verdict={overall ?? 'checking'}
      title={t('ofdViewer.signatures', { count: doc.signatures.length })}
      description={
        <div>
          {doc.signatures.map((info, i) => (
            <SignatureLine key={info.id} info={info} check={checks?.[i]} failed={failed} />
          ))}
          {checks ? <div className="os-ofd-signatures__note">{t('ofdViewer.trustNote')}</div> : null}
        </div>
      }
    />
  );
}

function SignatureLine({
  info,
  check,
  failed,
}: {
  info: OfdSignatureInfo;
  check: OfdSignatureCheck | undefined;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const verdict = check?.verdict ?? (failed ? 'unverifiable' : undefined);
  const name = check?.sealName ?? info.provider ?? info.type;
  const files = (status: string) =>
    (check?.references ?? [])
      .filter((r) => r.status === status)
      .map((r) => r.file)
      .join('、');
  return (
    <div className="os-ofd-signatures__item" data-testid="ofd-signature" data-verdict={verdict ?? 'checking'}>
      <div>
        {verdict ? (
          <Tag color={TAG_COLOR[verdict]}>{t(`ofdViewer.verdict.${verdict}`)}</Tag>
        ) : (
          <Tag>{t('ofdViewer.checking')}</Tag>
        )}
        <strong>{name}</strong>
        {info.provider && info.provider !== name ? <span> · {info.provider}</span> : null}
      </div>
      {check?.signer ? (
        <div>
          {t('ofdViewer.signer', { subject: check.signer.subject, issuer: check.signer.issuer })}
          {check.signedAt ? ` · ${t('ofdViewer.signedAt', { time: formatTime(check.signedAt) })}` : null}
          {check.certificateValidAtSigning === false ? ` · ${t('ofdViewer.certOutside')}` : null}
        </div>
      ) : null}
      {check?.problems.map((p) => (
        <div key={p} data-testid="ofd-signature-problem" data-problem={p}>
          {t(`ofdViewer.problem.${p}`, {
            files: p === 'referenceMissing' ? files('missing') : files('changed'),
          })}
        </div>
      ))}
    </div>
  );
}
