import { useTranslation } from 'react-i18next';
import { rectToBox, type PdfPageOverlay } from '../../../components/pdf-viewer';
import { commonName, type NumberedSignature } from '../model/verify-report';

/** The boxes of the signatures that sit on one page, numbered and coloured by verdict. */
export function SignatureBoxes({
  page,
  items,
  activeNo,
  onSelect,
}: {
  page: PdfPageOverlay;
  items: readonly NumberedSignature[];
  activeNo: number | null;
  onSelect: (no: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {items
        .filter((i) => i.visible && i.sig.page === page.page && i.sig.rect)
        .map((item) => {
          const box = rectToBox(item.sig.rect!, page.geometry);
          const signer = item.sig.signer ?? commonName(item.sig.signerSubject) ?? item.sig.field;
          const active = activeNo === item.no;
          return (
            <button
              type="button"
              key={item.no}
              className={`os-verify-box os-verify-tone--${item.tone}${active ? ' os-verify-box--active' : ''}`}
              style={box}
              data-testid={`signature-box-${item.no}`}
              data-tone={item.tone}
              data-status={item.status}
              data-active={active || undefined}
              title={`${t('verify.signatureNo', { no: item.no })} · ${signer} · ${t(`verify.status.${item.status}`)}`}
              aria-label={`${t('verify.signatureNo', { no: item.no })} ${signer}`}
              onClick={() => onSelect(item.no)}
            >
              <span className="os-verify-no">{item.no}</span>
            </button>
          );
        })}
    </>
  );
}
