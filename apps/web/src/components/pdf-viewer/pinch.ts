import { useEffect, useRef, useState, type RefObject } from 'react';

/** The zoom range of the viewer, as a multiple of fit-to-width. */
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 4;
/** Zoom moves in steps of this size, so a pinch redraws the pages a bounded number of times. */
export const ZOOM_STEP = 0.05;
/** The zoom buttons' step. */
export const ZOOM_BUTTON_STEP = 0.5;

/** The zoom after two fingers moved from `startDistance` apart to `distance` apart, clamped and stepped. */
export function pinchZoom(startZoom: number, startDistance: number, distance: number): number {
  if (!(startDistance > 0) || !(distance > 0)) return clampZoom(startZoom);
  return clampZoom(startZoom * (distance / startDistance));
}

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return ZOOM_MIN;
  const stepped = Math.round(zoom / ZOOM_STEP) * ZOOM_STEP;
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Number(stepped.toFixed(2))));
}

/**
 * Pinch to zoom on an element with two touch pointers (pointer events: touch screens, and pens). The
 * element should have `touch-action: pan-x pan-y`, so the browser scrolls with one finger but leaves the
 * pinch to the page instead of zooming the whole site.
 */
export function usePinchZoom(
  ref: RefObject<HTMLElement | null>,
  enabled: boolean,
): [number, (z: number) => void] {
  const [zoom, setZoomState] = useState(ZOOM_MIN);
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  const setZoom = (z: number) => setZoomState(clampZoom(z));

  useEffect(() => {
    const el = ref.current;
    if (!enabled || !el) return;
    const points = new Map<number, { x: number; y: number }>();
    let start: { distance: number; zoom: number } | null = null;
    let frame = 0;
    let pending: number | null = null;
    const distance = () => {
      const [a, b] = [...points.values()];
      return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
    };
    const down = (e: PointerEvent) => {
      if (e.pointerType === 'mouse') return;
      points.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (points.size === 2) start = { distance: distance(), zoom: zoomRef.current };
    };
    const move = (e: PointerEvent) => {
      if (!points.has(e.pointerId)) return;
      points.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (!start || points.size !== 2) return;
      e.preventDefault();
      pending = pinchZoom(start.zoom, start.distance, distance());
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (pending !== null && pending !== zoomRef.current) setZoomState(pending);
      });
    };
    const up = (e: PointerEvent) => {
      points.delete(e.pointerId);
      if (points.size < 2) start = null;
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move, { passive: false });
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
    };
  }, [ref, enabled]);

  return [zoom, setZoom];
}
