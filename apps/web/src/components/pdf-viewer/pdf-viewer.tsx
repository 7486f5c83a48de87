import { ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { Alert, Button, Spin } from 'antd';
import type * as PdfjsModule from 'pdfjs-dist';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useElementWidth, useNearViewport } from '../../hooks/use-element-box';
import { displayedSizePt, fitWidthScale, type PageGeometry, type PageView } from './geometry';
import { usePinchZoom, ZOOM_BUTTON_STEP, ZOOM_MAX, ZOOM_MIN } from './pinch';
import './pdf-viewer.css';

/**
 * The shared PDF viewer: every page of a document (bytes or an address) stacked at a zoom that fits the
 * container's width, each page drawn by pdf.js only when it comes near the viewport. A caller draws on
 * top of each page through `renderOverlay`, told the page number, its displayed size in points and the
 * scale (CSS pixels per point); `geometry.ts` turns PDF rectangles into boxes at that scale and back.
 * pdf.js and its worker load on first use, in chunks of their own.
 */

export type PdfSource = { data: Uint8Array } | { url: string };

export interface PdfPageInfo {
  /** 1-based. */
  page: number;
  /** The page as displayed (after /Rotate), in points. */
  widthPt: number;
  heightPt: number;
  view: PageView;
  rotate: number;
}

export interface PdfPageOverlay extends PdfPageInfo {
  /** CSS pixels per point at the current zoom. */
  scale: number;
  /** What `rectToBox`/`boxToRect` need for this page. */
  geometry: PageGeometry;
}

export interface PdfViewerProps {
  source: PdfSource;
  renderOverlay?: (info: PdfPageOverlay) => ReactNode;
  /** The widest a page is drawn, in CSS pixels (default 900). */
  maxWidth?: number;
  /** How far outside the viewport pages are drawn ahead, in pixels (default 800). */
  preloadPx?: number;
  onLoaded?: (pages: PdfPageInfo[]) => void;
  onError?: (kind: PdfLoadErrorKind) => void;
  testId?: string;
  /** Zoom beyond fit-to-width: by pinching on a touch screen, and with zoom buttons. */
  zoomable?: boolean;
  /** The password of a password-protected PDF (user or owner). */
  password?: string | null;
}

export type PdfLoadErrorKind = 'encrypted' | 'invalid' | 'failed';

type Pdfjs = typeof PdfjsModule;
let pdfjsPromise: Promise<Pdfjs> | null = null;

/** pdf.js with its worker served as a separate file by the bundler (the Vite `?url` import). */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjsPromise ??= Promise.all([
    import('pdfjs-dist'),
    import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
  ]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    return pdfjs;
  });
  pdfjsPromise.catch(() => (pdfjsPromise = null));
  return pdfjsPromise;
}

function errorKind(err: unknown): PdfLoadErrorKind {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'PasswordException') return 'encrypted';
  if (name === 'InvalidPDFException') return 'invalid';
  return 'failed';
}

export function PdfViewer({
  source,
  renderOverlay,
  maxWidth = 900,
  preloadPx = 800,
  onLoaded,
  onError,
  testId = 'pdf-viewer',
  zoomable = false,
  password = null,
}: PdfViewerProps) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [pages, setPages] = useState<PdfPageInfo[]>([]);
  const [error, setError] = useState<{ kind: PdfLoadErrorKind; reason: string } | null>(null);
  const callbacks = useRef({ onLoaded, onError });
  callbacks.current = { onLoaded, onError };

  const width = useElementWidth(container);
  const [zoom, setZoom] = usePinchZoom(container, zoomable);

  const key = 'data' in source ? source.data : source.url;
  useEffect(() => {
    let live = true;
    let opened: PDFDocumentProxy | null = null;
    let destroyTask: (() => Promise<void>) | null = null;
    setDoc(null);
    setPages([]);
    setError(null);
    void (async () => {
      try {
        const pdfjs = await loadPdfjs();
        if (!live) return;
        const task = pdfjs.getDocument({
          // pdf.js takes the buffer over; a copy keeps the caller's bytes usable.
          ...(typeof key === 'string' ? { url: key } : { data: key.slice() }),
          ...(password ? { password } : {}),
          isEvalSupported: false,
        });
        destroyTask = () => task.destroy();
        opened = await task.promise;
        const infos: PdfPageInfo[] = [];
        for (let n = 1; n <= opened.numPages; n++) {
          const page = await opened.getPage(n);
          const view = page.view as unknown as PageView;
          infos.push({ page: n, view, rotate: page.rotate, ...displayedSizePt(view, page.rotate) });
        }
        if (!live) return;
        setDoc(opened);
        setPages(infos);
        callbacks.current.onLoaded?.(infos);
      } catch (err) {
        if (!live) return;
        const kind = errorKind(err);
        setError({ kind, reason: err instanceof Error ? err.message : String(err) });
        callbacks.current.onError?.(kind);
      }
    })();
    return () => {
      live = false;
      void (opened ? opened.destroy() : destroyTask?.());
    };
  }, [key, password]);

  const available = Math.min(maxWidth, Math.max(0, width - 16));
  return (
    <div
      className={zoomable ? 'os-pdf-viewer os-pdf-viewer--zoomable' : 'os-pdf-viewer'}
      ref={container}
      data-testid={testId}
      data-pages={pages.length || undefined}
      data-zoom={zoom}
    >
      {zoomable && doc ? (
        <div className="os-pdf-viewer__zoom" data-testid={`${testId}-zoom`}>
          <Button
            shape="circle"
            icon={<ZoomOutOutlined />}
            aria-label={t('pdfViewer.zoomOut')}
            disabled={zoom <= ZOOM_MIN}
            onClick={() => setZoom(zoom - ZOOM_BUTTON_STEP)}
            data-testid={`${testId}-zoom-out`}
          />
          <span className="os-pdf-viewer__zoom-value">{Math.round(zoom * 100)}%</span>
          <Button
            shape="circle"
            icon={<ZoomInOutlined />}
            aria-label={t('pdfViewer.zoomIn')}
            disabled={zoom >= ZOOM_MAX}
            onClick={() => setZoom(zoom + ZOOM_BUTTON_STEP)}
            data-testid={`${testId}-zoom-in`}
          />
        </div>
      ) : null}
      {error ? (
        <Alert
          className="os-pdf-viewer__state"
          type="error"
          showIcon
          data-testid={`${testId}-error`}
          title={t('pdfViewer.failed')}
          description={
            error.kind === 'failed'
              ? t('pdfViewer.failedText', { reason: error.reason })
              : t(`pdfViewer.${error.kind}`)
          }
        />
      ) : !doc || available <= 0 ? (
        <div className="os-pdf-viewer__state">
          <Spin description={t('pdfViewer.loading')} />
        </div>
      ) : (
        pages.map((info) => {
          const scale = fitWidthScale(available, info.widthPt, { min: 0.2, max: 4 }) * zoom;
          return (
            <PdfPage
              key={info.page}
              doc={doc}
              info={info}
              scale={scale}
              preloadPx={preloadPx}
              label={t('pdfViewer.page', { page: info.page })}
              overlay={renderOverlay?.({
                ...info,
                scale,
                geometry: { view: info.view, rotate: info.rotate, scale },
              })}
            />
          );
        })
      )}
    </div>
  );
}

/** One page: a box of the page's size at once (so overlays and scrolling work), its picture when near. */
function PdfPage({
  doc,
  info,
  scale,
  preloadPx,
  label,
  overlay,
}: {
  doc: PDFDocumentProxy;
  info: PdfPageInfo;
  scale: number;
  preloadPx: number;
  label: string;
  overlay: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  /** The scale the canvas holds: coming back into view at the same zoom draws nothing again. */
  const drawnAt = useRef<number | null>(null);
  // Not rounded: the box is exactly `scale` pixels per point, so what an overlay draws at `scale` and what
  // it measures on the box (a drop point, a drag) agree.
  const width = info.widthPt * scale;
  const height = info.heightPt * scale;

  const near = useNearViewport(box, preloadPx);

  useEffect(() => {
    if (!near || drawnAt.current === scale) return;
    let task: RenderTask | null = null;
    let live = true;
    void (async () => {
      try {
        const page = await doc.getPage(info.page);
        const el = canvas.current;
        if (!live || !el) return;
        const ratio = Math.min(window.devicePixelRatio || 1, 2);
        const viewport = page.getViewport({ scale: scale * ratio });
        el.width = Math.floor(viewport.width);
        el.height = Math.floor(viewport.height);
        task = page.render({ canvas: el, viewport });
        await task.promise;
        drawnAt.current = scale;
        if (live) setDrawn(true);
      } catch {
        // A cancelled render (zoom or scroll changed) is redrawn by the next effect run.
      }
    })();
    return () => {
      live = false;
      task?.cancel();
    };
  }, [near, doc, info.page, scale]);

  return (
    <div
      ref={box}
      className="os-pdf-viewer__page"
      style={{ width, height }}
      data-testid="pdf-page"
      data-page={info.page}
      data-drawn={drawn || undefined}
      aria-label={label}
    >
      <canvas ref={canvas} style={{ width, height }} />
      <div className="os-pdf-viewer__overlay">{overlay}</div>
      <span className="os-pdf-viewer__number">{info.page}</span>
    </div>
  );
}
