/**
 * Pure geometry of seal placements. The wire unit is the millimetre, measured from the displayed page's
 * left and top edges to the centre of the image (the sign contracts); the screen unit is the CSS pixel of
 * the rendered page. One factor links them: pixels per millimetre (from the viewer's scale, or the page's
 * measured width in pixels over its width in millimetres), so nothing here depends on how pages are scaled.
 */
export interface SizeMm {
  widthMm: number;
  heightMm: number;
}

export interface PointMm {
  x: number;
  y: number;
}

export interface BoxPx {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Pixels per millimetre of a page measured `pagePx` wide on screen whose width is `pageMm` (a drop target's
 * bounding box). Points, millimetres and the viewer's scale convert with the shared viewer's geometry.
 */
export function pxPerMm(pagePx: number, pageMm: number): number {
  if (!(pageMm > 0) || !(pagePx > 0)) return 1;
  return pagePx / pageMm;
}

/** Millimetres to one decimal, the precision placements are sent with. */
export function roundMm(value: number): number {
  return Math.round(value * 10) / 10;
}

function clamp(value: number, min: number, max: number): number {
  if (max < min) return (min + max) / 2;
  return Math.min(max, Math.max(min, value));
}

/** Keeps the whole image on the page: its centre at least half its size from every edge. */
export function clampCentre(point: PointMm, page: SizeMm, image: SizeMm): PointMm {
  return {
    x: roundMm(clamp(point.x, image.widthMm / 2, page.widthMm - image.widthMm / 2)),
    y: roundMm(clamp(point.y, image.heightMm / 2, page.heightMm - image.heightMm / 2)),
  };
}

/** The centre in millimetres of an image whose centre is at (`xPx`, `yPx`) on the rendered page. */
export function centreFromPx(xPx: number, yPx: number, scale: number, page: SizeMm, image: SizeMm): PointMm {
  return clampCentre({ x: xPx / scale, y: yPx / scale }, page, image);
}

/** The image's box on the rendered page, in pixels from its top-left corner. */
export function boxPx(centre: PointMm, image: SizeMm, scale: number): BoxPx {
  return {
    left: (centre.x - image.widthMm / 2) * scale,
    top: (centre.y - image.heightMm / 2) * scale,
    width: image.widthMm * scale,
    height: image.heightMm * scale,
  };
}

/**
 * A riding seam splits the seal into one vertical strip per page along the right edge: each page shows a
 * strip as wide as the seal over the page count (the whole seal on a one-page file).
 */
export function ridingSeamStrip(image: SizeMm, pageCount: number): SizeMm {
  return { widthMm: image.widthMm / Math.max(1, pageCount), heightMm: image.heightMm };
}

/** The centre of a riding-seam strip: flush with the right edge; only its height is chosen. */
export function ridingSeamCentre(y: number, page: SizeMm, strip: SizeMm): PointMm {
  return {
    x: roundMm(page.widthMm - strip.widthMm / 2),
    y: roundMm(clamp(y, strip.heightMm / 2, page.heightMm - strip.heightMm / 2)),
  };
}

/** Moves a centre by whole millimetres (arrow keys), staying on the page. */
export function nudge(point: PointMm, dxMm: number, dyMm: number, page: SizeMm, image: SizeMm): PointMm {
  return clampCentre({ x: point.x + dxMm, y: point.y + dyMm }, page, image);
}

/** Arrow keys to a one-millimetre step; null for any other key. */
export function arrowStep(key: string): { dx: number; dy: number } | null {
  switch (key) {
    case 'ArrowLeft':
      return { dx: -1, dy: 0 };
    case 'ArrowRight':
      return { dx: 1, dy: 0 };
    case 'ArrowUp':
      return { dx: 0, dy: -1 };
    case 'ArrowDown':
      return { dx: 0, dy: 1 };
    default:
      return null;
  }
}
