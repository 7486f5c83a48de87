import { Descriptions, Tag } from 'antd';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../model/format';
import {
  commonName,
  orderedFindings,
  signatureFacts,
  unconfirmedOf,
  type NumberedSignature,
  type Tone,
} from '../model/verify-report';
import { ChangeList, FindingList, TONE_ICONS } from './findings';

export const TAG_COLOR: Record<Tone, string> = { valid: 'success', warning: 'warning', invalid: 'error' };

/** One signature's report: who, with which certificate, when, and each check with its outcome. */
export const SignatureCard = forwardRef<
  HTMLDivElement,
  {
    item: NumberedSignature;
    revisions: number;
    active?: boolean;
    /** Selects the signature's box on the page; without it the card is not a control. */
    onSelect?: () => void;
  }
>(function SignatureCard({ item, revisions, active = false, onSelect }, ref) {
  const { t } = useTranslation();
  const { sig, no, tone, status } = item;
  const unconfirmed = status === 'indeterminate' ? unconfirmedOf(sig) : null;
  const issuer = commonName(sig.signerIssuer) ?? t('verify.none');
  const signer = sig.signer ?? commonName(sig.signerSubject) ?? sig.field;
  const none = t('verify.none');
  const revocation = `${t(`verify.fact.revocation.${sig.revocation.status}`)}${
    sig.revocation.revokedAt
      ? t('verify.revocationAt', { time: formatDateTime(sig.revocation.revokedAt) })
      : ''
  }${
    sig.revocation.reason
      ? ` · ${t(`verify.revocationReason.${sig.revocation.reason}`, { defaultValue: sig.revocation.reason })}`
      : ''
  }`;
  const items = [
    { key: 'signer', label: t('verify.card.signer'), children: signer },
    { key: 'subject', label: t('verify.card.subject'), children: sig.signerSubject ?? none },
    { key: 'issuer', label: t('verify.card.issuer'), children: sig.signerIssuer ?? none },
    {
      key: 'serial',
      label: t('verify.card.serial'),
      children: <span className="os-verify-mono">{sig.serialHex ?? none}</span>,
    },
    {
      key: 'validity',
      label: t('verify.card.certValidity'),
      children:
        sig.certNotBefore || sig.certNotAfter
          ? `${formatDateTime(sig.certNotBefore)} ~ ${formatDateTime(sig.certNotAfter)}`
          : none,
    },
    { key: 'time', label: t('verify.card.signingTime'), children: formatDateTime(sig.signingTime) },
    {
      key: 'timestamp',
      label: t('verify.card.timestamp'),
      children: sig.timestamp
        ? `${formatDateTime(sig.timestamp.time)}${sig.timestamp.tsa ? ` · ${commonName(sig.timestamp.tsa)}` : ''}`
        : none,
    },
    {
      key: 'revocation',
      label: t('verify.card.revocation'),
      children: `${revocation} (${sig.revocation.source})`,
    },
    {
      key: 'position',
      label: t('verify.card.position'),
      children: item.visible
        ? t('verify.card.positionValue', { page: sig.page })
        : t('verify.card.invisible'),
    },
    {
      key: 'revision',
      label: t('verify.card.revision'),
      children: `${
        sig.signedRevision >= 0
          ? t('verify.card.revisionValue', { no: sig.signedRevision + 1, total: revisions })
          : none
      } · ${sig.coversWholeDocument ? t('verify.card.wholeDocument') : t('verify.card.partial')}`,
    },
    { key: 'field', label: t('verify.card.field'), children: sig.field },
  ];
  return (
    <div
      ref={ref}
      role={onSelect ? 'button' : undefined}
      tabIndex={onSelect ? 0 : undefined}
      className={`os-verify-card os-verify-tone--${tone}${active ? ' os-verify-card--active' : ''}${onSelect ? '' : ' os-verify-card--static'}`}
      data-testid={`signature-card-${no}`}
      data-tone={tone}
      data-status={status}
      data-field={sig.field}
      data-active={active || undefined}
      onClick={onSelect}
      onKeyDown={(e) => {
        if (onSelect && e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
          e.preventDefault();
          onSelect();
        }
      }}
    >
      <div className="os-verify-card__head">
        <span className="os-verify-no">{no}</span>
        <span className="os-verify-card__title">{signer}</span>
        <Tag color={TAG_COLOR[tone]} style={{ marginInlineEnd: 0 }} data-testid={`signature-status-${no}`}>
          {t(`verify.status.${status}`)}
        </Tag>
      </div>
      <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.45)', marginBottom: 6 }}>
        {t('verify.signatureNo', { no })} · {t(`verify.kind.${sig.kind}`)}
      </div>
      {unconfirmed?.signer ? (
        <div className="os-verify-unconfirmed" data-testid={`signature-unconfirmed-${no}`}>
          <strong>{t('verify.unconfirmed.signer')}</strong>
          <span data-testid={`signature-issuer-${no}`}>{t('verify.unconfirmed.issuer', { issuer })}</span>
          <span>{t('verify.unconfirmed.signerText')}</span>
        </div>
      ) : null}
      {unconfirmed?.changes ? (
        <div className="os-verify-unconfirmed" data-testid={`signature-added-${no}`}>
          <strong>{t('verify.unconfirmed.changes')}</strong>
          <span>{t('verify.unconfirmed.changesText')}</span>
        </div>
      ) : null}
      <ul className="os-verify-card__facts">
        {signatureFacts(sig).map((f) => {
          const Icon = TONE_ICONS[f.tone];
          return (
            <li key={f.key} className={`os-verify-tone--${f.tone}`} data-fact={f.key}>
              <Icon style={{ color: 'var(--tone)' }} />
              <span>{t(`verify.${f.key}`)}</span>
            </li>
          );
        })}
      </ul>
      {sig.findings.length > 0 ? (
        <div className="os-verify-card__section">
          <strong>{t('verify.card.findings')}</strong>
          <FindingList findings={orderedFindings(sig)} testId={`signature-findings-${no}`} />
        </div>
      ) : null}
      {sig.changes.length > 0 ? (
        <div className="os-verify-card__section">
          <strong>{t('verify.card.changes', { count: sig.changes.length })}</strong>
          <ChangeList changes={sig.changes} testId={`signature-changes-${no}`} />
        </div>
      ) : null}
      <Descriptions size="small" column={1} items={items} />
    </div>
  );
});
