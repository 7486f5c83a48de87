import { Alert, Spin } from 'antd';
import type { OfdDocument, OfdPageInfo } from '@openseal/ofd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useElementWidth, useNearViewport } from '../../hooks/use-element-box';
import '../pdf-viewer/pdf-viewer.css';
import { OfdSignatures } from './ofd-signatures';

/**
 * The shared OFD viewer: every page of an OFD package (GB/T 33190) stacked at a zoom that fits the
 * container's width, as the PDF viewer does. `@openseal/ofd` (the same reader the server checks uploads
 * with) loads on first use in a chunk of its own and draws each page as SVG when it comes near the
 * viewport; the SVG is shown as an image, so nothing in a document can run in the page. Seal pictures of
 * the document's signatures are drawn where they sit, and the signatures are checked (OfdSignatures).
 */
export interface OfdViewerProps {
  data: Uint8Array;
  /** The widest a page is drawn, in CSS pixels (default 900). */
  maxWidth?: number;
  /** How far outside the viewport pages are drawn ahead, in pixels (default 800). */
  preloadPx?: number;
  testId?: string;
}

const PX_PER_MM = 96 / 25.4;

export function OfdViewer({ data, maxWidth = 900, preloadPx = 800, testId = 'ofd-viewer' }: OfdViewerProps) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<OfdDocument | null>(null);
  const [error, setError] = useState<string | null>(null);

  const width = useElementWidth(container);

  useEffect(() => {
    let live = true;
    setDoc(null);
    setError(null);
    void import('@openseal/ofd')
      .then(({ readOfd }) => {
        const opened = readOfd(data);
        if (!live) return;
        setDoc(opened);
      })
      .catch((err: unknown) => {
        if (live) setError(err instanceof Error ? err.message : String(err));
      });
    return () => {
      live = false;
    };
  }, [data]);

  const available = Math.min(maxWidth, Math.max(0, width - 16));
  return (
    <div
      className="os-pdf-viewer"
      ref={container}
      data-testid={testId}
      data-format="ofd"
      data-pages={doc?.pages.length || undefined}
      data-signatures={doc ? doc.signatures.length : undefined}
    >
      {error ? (
        <Alert
          className="os-pdf-viewer__state"
          type="error"
          showIcon
          data-testid={`${testId}-error`}
          title={t('ofdViewer.failed')}
          description={t('ofdViewer.failedText', { reason: error })}
        />
      ) : !doc || available <= 0 ? (
        <div className="os-pdf-viewer__state">
          <Spin description={t('ofdViewer.loading')} />
        </div>
      ) : (
        <>
          <OfdSignatures doc={doc} width={available} />
          {doc.warnings.length > 0 ? (
            <Alert
              type="warning"
              showIcon
              style={{ width: available }}
              title={t('ofdViewer.missing', { parts: doc.warnings.join('; ') })}
            />
          ) : null}
          {doc.pages.map((page) => (
            <OfdPage
              key={page.index}
              doc={doc}
              page={page}
              scale={Math.min(4, Math.max(0.2, available / (page.widthMm * PX_PER_MM))) * PX_PER_MM}
              preloadPx={preloadPx}
              label={t('ofdViewer.page', { page: page.index + 1 })}
            />
          ))}
        </>
      )}
    </div>
  );
}

/** One page: a box of the page's size at once, its drawing (an SVG image) once it comes near. */
function OfdPage({
  doc,
  page,
  scale,
  preloadPx,
  label,
}: {
  doc: OfdDocument;
  page: OfdPageInfo;
  /** CSS pixels per millimetre. */
  scale: number;
  preloadPx: number;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const width = page.widthMm * scale;
  const height = page.heightMm * scale;

  const near = useNearViewport(box, preloadPx);

  // The drawing does not depend on the zoom (SVG scales), so it is made once per page.
  useEffect(() => {
    if (!near || url) return;
    const svg = doc.renderPageSvg(page.index);
    setUrl(URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' })));
  }, [near, url, doc, page.index]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  return (
    <div
      ref={box}
      className="os-pdf-viewer__page"
      style={{ width, height }}
      data-testid="ofd-page"
      data-page={page.index + 1}
      data-drawn={url ? true : undefined}
      aria-label={label}
    >
      {url ? (
        <img src={url} alt={label} style={{ width, height, display: 'block' }} draggable={false} />
      ) : null}
      <span className="os-pdf-viewer__number">{page.index + 1}</span>
    </div>
  );
}
