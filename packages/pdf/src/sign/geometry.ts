import type { Box, PdfPage } from '../reader';

export const PT_PER_MM = 72 / 25.4;

/** The part of a page the user sees (CropBox within MediaBox) and how the viewer turns it. */
export interface PageFrame {
  box: Box;
  rotate: number;
}

export function pageFrame(page: PdfPage): PageFrame {
  const m = page.mediaBox;
  const c = page.cropBox;
  let box: Box = m;
  if (c) {
    const b: Box = [Math.max(m[0], c[0]), Math.max(m[1], c[1]), Math.min(m[2], c[2]), Math.min(m[3], c[3])];
    if (b[2] > b[0] && b[3] > b[1]) box = b;
  }
  return { box, rotate: page.rotate };
}

/** Width and height of the page as displayed, in points. */
export function displaySize(f: PageFrame): [number, number] {
  const w = f.box[2] - f.box[0];
  const h = f.box[3] - f.box[1];
  return f.rotate % 180 === 0 ? [w, h] : [h, w];
}

/**
 * Maps a point given in displayed coordinates (u to the right, v down, from the displayed top-left
 * corner, in points) to the page's default user space. /Rotate turns the page clockwise on screen.
 */
export function toUser(f: PageFrame, u: number, v: number): [number, number] {
  const [x0, y0, x1, y1] = f.box;
  switch (f.rotate) {
    case 90:
      return [x0 + v, y0 + u];
    case 180:
      return [x1 - u, y0 + v];
    case 270:
      return [x1 - v, y1 - u];
    default:
      return [x0 + u, y1 - v];
  }
}

/** The user-space /Rect of a displayed rectangle given by its centre and size (points). */
export function userRect(f: PageFrame, cu: number, cv: number, w: number, h: number): Box {
  const a = toUser(f, cu - w / 2, cv - h / 2);
  const b = toUser(f, cu + w / 2, cv + h / 2);
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
}

/**
 * The /Matrix for an appearance drawn upright in a w×h box: it turns the drawing against the page's
 * rotation, so after the viewer rotates the page the seal reads the right way up.
 */
export function uprightMatrix(rotate: number): number[] {
  switch (rotate) {
    case 90:
      return [0, 1, -1, 0, 0, 0];
    case 180:
      return [-1, 0, 0, -1, 0, 0];
    case 270:
      return [0, -1, 1, 0, 0, 0];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}
