import { CloseOutlined, LockOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import {
  addPlacement,
  footprint,
  imageSizeOf,
  movePlacement,
  nudgePlacement,
  removePlacement,
  type DraftPlacement,
  type PlacementKind,
} from '../model/placement-draft';
import { arrowStep, boxPx, pxPerMm, type SizeMm } from '../model/placement-geometry';

/**
 * The draggable placement layer over the viewer's pages. A palette offers the chosen seal, personal
 * signature and a riding seam at real size; they are dragged onto a page, dragged to move, removed with
 * their handle or the Delete key, and nudged a millimetre with the arrow keys. Plain pointer events: a
 * drop finds the page under the pointer by its overlay element, whose data attributes carry the file, the
 * page and its size in millimetres, so the layer works whatever scale the viewer renders at.
 */
export interface PlacementImage extends SizeMm {
  url: string;
}

export interface PlacementImages {
  seal: PlacementImage | null;
  signature: PlacementImage | null;
}

interface Drag {
  kind: PlacementKind;
  /** Moving an existing placement; null for one dragged from the palette. */
  id: string | null;
  /** Pointer minus the image centre, in pixels, when the drag started. */
  offsetX: number;
  offsetY: number;
  clientX: number;
  clientY: number;
  /** Pixels per millimetre for the ghost (the page's scale, or the palette's). */
  scale: number;
}

interface LayerContext {
  placements: readonly DraftPlacement[];
  images: PlacementImages;
  editable: boolean;
  pageCount: (fileId: string) => number;
  selectedId: string | null;
  select: (id: string | null) => void;
  startDrag: (event: ReactPointerEvent, drag: Omit<Drag, 'clientX' | 'clientY'>) => void;
  dragging: Drag | null;
  onKey: (event: ReactKeyboardEvent, p: DraftPlacement, page: SizeMm) => void;
  remove: (id: string) => void;
  /** The last page scale seen, so the palette shows images at the size they will land. */
  scale: number;
  setScale: (scale: number) => void;
}

const Ctx = createContext<LayerContext | null>(null);

function useLayer(): LayerContext {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('placement layer outside its provider');
  return ctx;
}

/** A screen's CSS pixels per millimetre (96 dpi), until a page has been measured. */
const CSS_PX_PER_MM = 96 / 25.4;
const OVERLAY_ATTR = 'data-sign-page-overlay';

interface PageHit {
  fileId: string;
  page: number;
  size: SizeMm;
  rect: DOMRect;
}

function pageUnder(clientX: number, clientY: number): PageHit | null {
  for (const el of document.elementsFromPoint(clientX, clientY)) {
    if (!(el instanceof HTMLElement) || !el.hasAttribute(OVERLAY_ATTR)) continue;
    const fileId = el.dataset.fileId;
    const page = Number(el.dataset.page);
    const widthMm = Number(el.dataset.widthMm);
    const heightMm = Number(el.dataset.heightMm);
    if (!fileId || !(page > 0) || !(widthMm > 0) || !(heightMm > 0)) continue;
    return { fileId, page, size: { widthMm, heightMm }, rect: el.getBoundingClientRect() };
  }
  return null;
}

export function PlacementProvider({
  placements,
  onChange,
  images,
  pageCounts,
  editable,
  children,
}: {
  placements: readonly DraftPlacement[];
  onChange: (next: DraftPlacement[]) => void;
  images: PlacementImages;
  /** Pages per file id (a riding seam is split over them). */
  pageCounts: Readonly<Record<string, number>>;
  editable: boolean;
  children: ReactNode;
}) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dragging, setDragging] = useState<Drag | null>(null);
  const [scale, setScale] = useState(CSS_PX_PER_MM);
  const latest = useRef({ placements, onChange, images, pageCounts });
  latest.current = { placements, onChange, images, pageCounts };
  const pageCount = useCallback((fileId: string) => pageCounts[fileId] ?? 1, [pageCounts]);

  const startDrag = useCallback(
    (event: ReactPointerEvent, drag: Omit<Drag, 'clientX' | 'clientY'>) => {
      if (!editable || event.button !== 0) return;
      // A mouse would select text or drag the image; a finger is held by `touch-action: none` instead, and
      // cancelling its pointerdown would keep the browser from turning later taps into clicks.
      if (event.pointerType !== 'touch') event.preventDefault();
      event.stopPropagation();
      setDragging({ ...drag, clientX: event.clientX, clientY: event.clientY });
      if (drag.id) setSelectedId(drag.id);
    },
    [editable],
  );

  useEffect(() => {
    if (!dragging) return;
    const move = (e: PointerEvent) =>
      setDragging((d) => {
        if (!d) return d;
        const hit = pageUnder(e.clientX, e.clientY);
        const s = hit ? pxPerMm(hit.rect.width, hit.size.widthMm) : d.scale;
        return { ...d, clientX: e.clientX, clientY: e.clientY, scale: s };
      });
    const up = (e: PointerEvent) => {
      const d = dragging;
      setDragging(null);
      const hit = pageUnder(e.clientX, e.clientY);
      const { placements: list, onChange: change, images: imgs, pageCounts: counts } = latest.current;
      const image = imageSizeOf(d.kind, imgs);
      if (!hit || !image) return;
      const s = pxPerMm(hit.rect.width, hit.size.widthMm);
      const x = (e.clientX - d.offsetX - hit.rect.left) / s;
      const y = (e.clientY - d.offsetY - hit.rect.top) / s;
      const count = counts[hit.fileId] ?? 1;
      if (d.id) {
        const current = list.find((p) => p.id === d.id);
        // A placement stays in its file: a drop on another file's page leaves it where it was.
        if (!current || current.fileId !== hit.fileId) return;
        const page = d.kind === 'ridingSeam' ? current.page : hit.page;
        change(movePlacement(list, d.id, { page, x, y }, hit.size, image, count));
      } else {
        const next = addPlacement(
          list,
          { fileId: hit.fileId, kind: d.kind, page: hit.page, x, y },
          hit.size,
          image,
          count,
        );
        change(next);
        setSelectedId(next[next.length - 1]?.id ?? null);
      }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up, { once: true });
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
  }, [dragging]);

  const onKey = useCallback(
    (event: ReactKeyboardEvent, p: DraftPlacement, page: SizeMm) => {
      if (!editable || p.locked) return;
      const { placements: list, onChange: change, images: imgs } = latest.current;
      if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault();
        change(removePlacement(list, p.id));
        setSelectedId(null);
        return;
      }
      const step = arrowStep(event.key);
      const image = imageSizeOf(p.kind, imgs);
      if (!step || !image) return;
      event.preventDefault();
      change(nudgePlacement(list, p.id, step, page, image, pageCount(p.fileId)));
    },
    [editable, pageCount],
  );

  const remove = useCallback((id: string) => {
    const { placements: list, onChange: change } = latest.current;
    change(removePlacement(list, id));
    setSelectedId(null);
  }, []);

  const value = useMemo<LayerContext>(
    () => ({
      placements,
      images,
      editable,
      pageCount,
      selectedId,
      select: setSelectedId,
      startDrag,
      dragging,
      onKey,
      remove,
      scale,
      setScale,
    }),
    [placements, images, editable, pageCount, selectedId, startDrag, dragging, onKey, remove, scale],
  );

  return (
    <Ctx.Provider value={value}>
      {children}
      <DragGhost />
    </Ctx.Provider>
  );
}

function DragGhost() {
  const { dragging, images } = useLayer();
  if (!dragging) return null;
  const image = dragging.kind === 'signature' ? images.signature : images.seal;
  if (!image) return null;
  const w = image.widthMm * dragging.scale;
  const h = image.heightMm * dragging.scale;
  return createPortal(
    <div
      data-testid="placement-ghost"
      style={{
        position: 'fixed',
        left: dragging.clientX - dragging.offsetX - w / 2,
        top: dragging.clientY - dragging.offsetY - h / 2,
        width: w,
        height: h,
        pointerEvents: 'none',
        opacity: 0.7,
        zIndex: 2000,
        outline: '1px dashed var(--os-primary)',
      }}
    >
      <img src={image.url} alt="" draggable={false} style={{ width: '100%', height: '100%' }} />
    </div>,
    document.body,
  );
}

/** The palette: what can be dragged onto the pages, at the size it will land. */
export function PlacementPalette({ kinds }: { kinds: readonly PlacementKind[] }) {
  const { t } = useTranslation();
  const { images, startDrag, editable, scale } = useLayer();
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12 }} data-testid="placement-palette">
      {kinds.map((kind) => {
        const image = kind === 'signature' ? images.signature : images.seal;
        const enabled = editable && image !== null;
        // Real size at the pages' scale, but never wider than the palette card.
        const s = image ? Math.min(scale, 110 / Math.max(image.widthMm, image.heightMm)) : scale;
        return (
          <div
            key={kind}
            data-testid={`palette-${kind}`}
            data-enabled={enabled ? 'true' : 'false'}
            onPointerDown={(e) => enabled && startDrag(e, { kind, id: null, offsetX: 0, offsetY: 0, scale })}
            // A finger held on the seal must drag it, not open the browser's image menu.
            onContextMenu={(e) => e.preventDefault()}
            style={{
              width: 128,
              minHeight: 150,
              padding: 8,
              border: '1px dashed var(--os-border)',
              borderRadius: 6,
              background: '#fff',
              cursor: enabled ? 'grab' : 'not-allowed',
              opacity: enabled ? 1 : 0.5,
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'space-between',
              userSelect: 'none',
              touchAction: 'none',
            }}
          >
            <div style={{ height: 116, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
              {image ? (
                kind === 'ridingSeam' ? (
                  <div style={{ display: 'flex', gap: 3 }}>
                    <SeamSlice image={image} scale={s} slices={2} index={0} />
                    <SeamSlice image={image} scale={s} slices={2} index={1} />
                  </div>
                ) : (
                  <img
                    src={image.url}
                    alt=""
                    draggable={false}
                    style={{ width: image.widthMm * s, height: image.heightMm * s }}
                  />
                )
              ) : (
                <span style={{ color: 'var(--os-text-2)', fontSize: 12 }}>{t('signPlace.noImage')}</span>
              )}
            </div>
            <span style={{ fontSize: 13 }}>{t(`signCommon.kind.${kind}`)}</span>
          </div>
        );
      })}
    </div>
  );
}

function SeamSlice({
  image,
  scale,
  slices,
  index,
}: {
  image: PlacementImage;
  scale: number;
  slices: number;
  index: number;
}) {
  const width = (image.widthMm * scale) / slices;
  return (
    <div style={{ width, height: image.heightMm * scale, overflow: 'hidden', position: 'relative' }}>
      <img
        src={image.url}
        alt=""
        draggable={false}
        style={{
          position: 'absolute',
          left: -index * width,
          top: 0,
          width: image.widthMm * scale,
          height: image.heightMm * scale,
          maxWidth: 'none',
        }}
      />
    </div>
  );
}

/**
 * One page's overlay: absolutely fills the rendered page; shows the placements on it (a riding seam on
 * every page of its file, its strip for that page) and is where drops land.
 */
export function PageOverlay({
  fileId,
  page,
  size,
  scale,
}: {
  fileId: string;
  page: number;
  size: SizeMm;
  /** CSS pixels per millimetre of the rendered page. */
  scale: number;
}) {
  const { placements, setScale } = useLayer();
  useEffect(() => setScale(scale), [scale, setScale]);
  const here = placements.filter((p) => p.fileId === fileId && (p.kind === 'ridingSeam' || p.page === page));
  return (
    <div
      {...{ [OVERLAY_ATTR]: '' }}
      data-testid="sign-page-overlay"
      data-file-id={fileId}
      data-page={page}
      data-width-mm={size.widthMm}
      data-height-mm={size.heightMm}
      style={{ position: 'absolute', inset: 0 }}
    >
      {here.map((p) => (
        <PlacedItem key={p.id} p={p} page={page} size={size} scale={scale} />
      ))}
    </div>
  );
}

function PlacedItem({
  p,
  page,
  size,
  scale,
}: {
  p: DraftPlacement;
  page: number;
  size: SizeMm;
  scale: number;
}) {
  const { t } = useTranslation();
  const { images, editable, pageCount, selectedId, select, startDrag, onKey, remove, dragging } = useLayer();
  const image = p.kind === 'signature' ? images.signature : images.seal;
  const count = pageCount(p.fileId);
  const foot = image ? footprint(p.kind, image, count) : { widthMm: 40, heightMm: 40 };
  // A seam sits flush with the right edge of each page, whatever that page's width.
  const x = p.kind === 'ridingSeam' ? size.widthMm - foot.widthMm / 2 : p.x;
  const box = boxPx({ x, y: p.y }, foot, scale);
  const selected = selectedId === p.id;
  const movable = editable && !p.locked;
  const beingDragged = dragging?.id === p.id;
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!movable) return;
    const rect = e.currentTarget.getBoundingClientRect();
    startDrag(e, {
      kind: p.kind,
      id: p.id,
      offsetX: e.clientX - (rect.left + rect.width / 2),
      offsetY: e.clientY - (rect.top + rect.height / 2),
      scale,
    });
    (e.currentTarget as HTMLElement).focus();
  };
  return (
    <div
      role="button"
      tabIndex={movable ? 0 : -1}
      aria-label={t(`signCommon.kind.${p.kind}`)}
      data-testid="placed-item"
      data-kind={p.kind}
      data-locked={p.locked ? 'true' : 'false'}
      data-x={p.x}
      data-y={p.y}
      data-page={p.page}
      onPointerDown={onPointerDown}
      onFocus={() => select(p.id)}
      onKeyDown={(e) => onKey(e, p, size)}
      onContextMenu={(e) => e.preventDefault()}
      style={{
        position: 'absolute',
        left: box.left,
        top: box.top,
        width: box.width,
        height: box.height,
        cursor: movable ? 'move' : 'default',
        outline: selected
          ? '2px solid var(--os-primary)'
          : p.locked
            ? '1px dashed #999'
            : '1px dashed var(--os-primary)',
        background: image ? undefined : 'rgba(200,22,29,0.12)',
        opacity: beingDragged ? 0.35 : 1,
        touchAction: 'none',
        userSelect: 'none',
      }}
    >
      {image ? (
        p.kind === 'ridingSeam' ? (
          <div style={{ width: '100%', height: '100%', overflow: 'hidden', position: 'relative' }}>
            <img
              src={image.url}
              alt=""
              draggable={false}
              style={{
                position: 'absolute',
                top: 0,
                left: -Math.min(page - 1, count - 1) * box.width,
                width: image.widthMm * scale,
                height: image.heightMm * scale,
                maxWidth: 'none',
              }}
            />
          </div>
        ) : (
          <img src={image.url} alt="" draggable={false} style={{ width: '100%', height: '100%' }} />
        )
      ) : null}
      {p.locked ? (
        <Tooltip title={t('signPlace.locked')}>
          <LockOutlined style={{ position: 'absolute', right: 2, top: 2, color: '#999' }} />
        </Tooltip>
      ) : movable && (selected || p.kind === 'ridingSeam') && (p.kind !== 'ridingSeam' || page === p.page) ? (
        <span
          role="button"
          tabIndex={-1}
          aria-label={t('signPlace.remove')}
          data-testid="placed-item-remove"
          className="os-placed-remove"
          onPointerDown={(e) => {
            e.stopPropagation();
            e.preventDefault();
            remove(p.id);
          }}
        >
          <span className="os-placed-remove__dot">
            <CloseOutlined />
          </span>
        </span>
      ) : null}
    </div>
  );
}
