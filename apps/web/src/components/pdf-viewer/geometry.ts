/**
 * Pure geometry between PDF user space and the displayed page: a rectangle in points (origin at the
 * lower left, y up, inside the CropBox) to a box in CSS pixels (origin at the top left of the displayed
 * page, y down), after the page's /Rotate, and back; millimetres to pixels. No DOM, no pdf.js.
 */

/** The visible area of a page in user space: [x0, y0, x1, y1] (pdf.js `page.view`, i.e. the CropBox). */
export type PageView = readonly [number, number, number, number];
/** A rectangle in PDF user space, as a signature widget's /Rect: [x1, y1, x2, y2] in any corner order. */
export type PdfRect = readonly [number, number, number, number];

export interface PageGeometry {
  view: PageView;
  /** /Rotate in degrees, clockwise; any multiple of 90 (negative ones too). */
  rotate: number;
  /** CSS pixels per PDF point. */
  scale: number;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const POINTS_PER_INCH = 72;
export const MM_PER_INCH = 25.4;

/** /Rotate brought to 0, 90, 180 or 270. */
export function normaliseRotation(rotate: number): 0 | 90 | 180 | 270 {
  const r = (((Math.round(rotate / 90) * 90) % 360) + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/** The page as displayed, in points: width and height swap on a quarter turn. */
export function displayedSizePt(view: PageView, rotate: number): { widthPt: number; heightPt: number } {
  const w = Math.abs(view[2] - view[0]);
  const h = Math.abs(view[3] - view[1]);
  const r = normaliseRotation(rotate);
  return r === 90 || r === 270 ? { widthPt: h, heightPt: w } : { widthPt: w, heightPt: h };
}

/** A point in user space to displayed points from the top left (before scaling). */
export function pointToDisplayPt(x: number, y: number, view: PageView, rotate: number): [number, number] {
  const x0 = Math.min(view[0], view[2]);
  const y0 = Math.min(view[1], view[3]);
  const w = Math.abs(view[2] - view[0]);
  const h = Math.abs(view[3] - view[1]);
  const u = x - x0;
  const v = y - y0;
  switch (normaliseRotation(rotate)) {
    case 0:
      return [u, h - v];
    case 90:
      return [v, u];
    case 180:
      return [w - u, v];
    case 270:
      return [h - v, w - u];
  }
}

/** A displayed point (points from the top left) back to user space. */
export function displayPtToPoint(px: number, py: number, view: PageView, rotate: number): [number, number] {
  const x0 = Math.min(view[0], view[2]);
  const y0 = Math.min(view[1], view[3]);
  const w = Math.abs(view[2] - view[0]);
  const h = Math.abs(view[3] - view[1]);
  let u: number;
  let v: number;
  switch (normaliseRotation(rotate)) {
    case 0:
      [u, v] = [px, h - py];
      break;
    case 90:
      [u, v] = [py, px];
      break;
    case 180:
      [u, v] = [w - px, py];
      break;
    case 270:
      [u, v] = [w - py, h - px];
      break;
  }
  return [u + x0, v + y0];
}

/** A user-space rectangle as a box in CSS pixels on the displayed page. */
export function rectToBox(rect: PdfRect, g: PageGeometry): Box {
  const [ax, ay] = pointToDisplayPt(rect[0], rect[1], g.view, g.rotate);
  const [bx, by] = pointToDisplayPt(rect[2], rect[3], g.view, g.rotate);
  return {
    left: Math.min(ax, bx) * g.scale,
    top: Math.min(ay, by) * g.scale,
    width: Math.abs(bx - ax) * g.scale,
    height: Math.abs(by - ay) * g.scale,
  };
}

/** A box in CSS pixels on the displayed page back to a user-space rectangle [x1, y1, x2, y2], x1 < x2, y1 < y2. */
export function boxToRect(box: Box, g: PageGeometry): [number, number, number, number] {
  const [ax, ay] = displayPtToPoint(box.left / g.scale, box.top / g.scale, g.view, g.rotate);
  const [bx, by] = displayPtToPoint(
    (box.left + box.width) / g.scale,
    (box.top + box.height) / g.scale,
    g.view,
    g.rotate,
  );
  return [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
}

/** True when a rectangle has an area: signature widgets of invisible signatures are [0 0 0 0]. */
export function hasArea(rect: PdfRect | undefined | null): rect is PdfRect {
  return !!rect && Math.abs(rect[2] - rect[0]) > 0.5 && Math.abs(rect[3] - rect[1]) > 0.5;
}

export function mmToPt(mm: number): number {
  return (mm * POINTS_PER_INCH) / MM_PER_INCH;
}

export function ptToMm(pt: number): number {
  return (pt * MM_PER_INCH) / POINTS_PER_INCH;
}

/** Millimetres on the page to CSS pixels at a scale (pixels per point). */
export function mmToPx(mm: number, scale: number): number {
  return mmToPt(mm) * scale;
}

export function pxToMm(px: number, scale: number): number {
  return ptToMm(px / scale);
}

/** The scale (pixels per point) at which a page of `widthPt` fills `containerPx`, within the bounds. */
export function fitWidthScale(
  containerPx: number,
  widthPt: number,
  bounds: { min?: number; max?: number } = {},
): number {
  if (!(widthPt > 0) || !(containerPx > 0)) return bounds.min ?? 1;
  const s = containerPx / widthPt;
  return Math.min(bounds.max ?? 4, Math.max(bounds.min ?? 0.25, s));
}
