import { Alert, Tag } from 'antd';
import { ofdReasonText } from '@openseal/core';
import type { OfdDocument, OfdSignatureCheck, OfdSignatureInfo } from '@openseal/ofd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../features/sign/model/format';
import { normaliseLanguage } from '../../lib/language';
import { loadViewerTrust } from './trust-anchors';

type Verdict = OfdSignatureCheck['verdict'];
const TAG_COLOR = { valid: 'success', invalid: 'error', indeterminate: 'warning' } as const;
const ALERT_TYPE = { valid: 'success', invalid: 'error', indeterminate: 'warning' } as const;

/**
 * The signatures an OFD document carries, each checked in the browser by `@openseal/ofd` (the parts it
 * covers, its signed value, the signer's key, and the signer's certificate against this platform's trust
 * anchors from `/pki/trust-anchors`) with its verdict: valid, invalid, or indeterminate, shown as a
 * warning that this platform has not confirmed the signer, with the certificate's issuer. Reasons are the
 * catalogued texts of packages/core.
 */
export function OfdSignatures({ doc, width }: { doc: OfdDocument; width: number }) {
  const { t } = useTranslation();
  const [checks, setChecks] = useState<OfdSignatureCheck[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [trustUnavailable, setTrustUnavailable] = useState(false);

  useEffect(() => {
    let live = true;
    setChecks(null);
    setFailed(false);
    void loadViewerTrust()
      .then(async (trust) => {
        const c = await doc.verifySignatures(trust);
        if (!live) return;
        setTrustUnavailable(trust.unavailable);
        setChecks(c);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [doc]);

  if (doc.signatures.length === 0) return null;
  const overall: Verdict | null = failed
    ? 'indeterminate'
    : !checks
      ? null
      : checks.some((c) => c.verdict === 'invalid')
        ? 'invalid'
        : checks.every((c) => c.verdict === 'valid')
          ? 'valid'
          : 'indeterminate';
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
          {checks ? (
            <div className="os-ofd-signatures__note">
              {t(trustUnavailable ? 'ofdViewer.trustUnavailable' : 'ofdViewer.trustNote')}
            </div>
          ) : null}
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
  const { t, i18n } = useTranslation();
  const lang = normaliseLanguage(i18n.language);
  const verdict: Verdict | undefined = check?.verdict ?? (failed ? 'indeterminate' : undefined);
  const name = check?.sealName ?? info.provider ?? info.type;
  const files = (status: string) =>
    (check?.references ?? [])
      .filter((r) => r.status === status)
      .map((r) => r.file)
      .join('、');
  const issuer = check?.signer?.issuer ?? '?';
  return (
    <div
      className="os-ofd-signatures__item"
      data-testid="ofd-signature"
      data-verdict={verdict ?? 'checking'}
      data-reason={check?.reason}
    >
      <div>
        {verdict ? (
          <Tag color={TAG_COLOR[verdict]}>{t(`ofdViewer.verdict.${verdict}`)}</Tag>
        ) : (
          <Tag>{t('ofdViewer.checking')}</Tag>
        )}
        <strong>{name}</strong>
        {info.provider && info.provider !== name ? <span> · {info.provider}</span> : null}
      </div>
      {verdict === 'indeterminate' ? (
        <div data-testid="ofd-signature-unconfirmed">
          <strong>{t('ofdViewer.unconfirmed', { issuer })}</strong>
        </div>
      ) : null}
      {check?.signer ? (
        <div>
          {t('ofdViewer.signer', { subject: check.signer.subject, issuer: check.signer.issuer })}
          {check.signedAt ? ` · ${t('ofdViewer.signedAt', { time: formatTime(check.signedAt) })}` : null}
        </div>
      ) : null}
      {/* The unconfirmed line above already says what issuerUnknown would, with the issuer. */}
      {check?.problems
        .filter((p) => p !== 'issuerUnknown')
        .map((p) => (
          <div key={p} data-testid="ofd-signature-problem" data-problem={p}>
            {ofdReasonText(p, lang, {
              files: p === 'referenceMissing' ? files('missing') : files('changed'),
              issuer,
            })}
          </div>
        ))}
    </div>
  );
}
