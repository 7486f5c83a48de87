/**
 * Plane geometry of the seal, in picture pixels with y pointing down. A round seal is an ellipse whose
 * semi-axes are equal, so one set of functions places text on both: a position on the outline is its
 * parameter t in radians, 0 at 12 o'clock, growing clockwise (x = a·sin t, y = −b·cos t).
 */

export interface Point {
  x: number;
  y: number;
}

/** Space between the security line's micro-text and what lies outside and inside it, per em. */
export const RING_GAP_PER_EM = 0.35;
/** The double border's inner line sits this share of the border's width inside the border. */
export const INNER_LINE_GAP_PER_BORDER = 0.6;

export const rad = (deg: number): number => (deg * Math.PI) / 180;
export const deg = (radians: number): number => (radians * 180) / Math.PI;

export function ellipsePoint(a: number, b: number, t: number): Point {
  return { x: a * Math.sin(t), y: -b * Math.cos(t) };
}

/**
 * The rotation (radians, clockwise) that turns "up" into the outline's outward normal at t: a glyph
 * turned by it stands with its top facing out.
 */
export function outwardAngle(a: number, b: number, t: number): number {
  const p = ellipsePoint(a, b, t);
  return Math.atan2(p.x / (a * a), -p.y / (b * b));
}

/** Arc length of the ellipse from t0 to t1 (Simpson's rule; the outline is smooth, 64 panels suffice). */
export function arcLength(a: number, b: number, t0: number, t1: number): number {
  const panels = 64;
  const h = (t1 - t0) / panels;
  const speed = (t: number) => Math.hypot(a * Math.cos(t), b * Math.sin(t));
  let sum = speed(t0) + speed(t1);
  for (let i = 1; i < panels; i++) sum += speed(t0 + i * h) * (i % 2 === 1 ? 4 : 2);
  return (sum * h) / 3;
}

/** The parameter reached after walking `length` along the outline from t0 (negative walks back). */
export function walk(a: number, b: number, t0: number, length: number): number {
  if (a === b) return t0 + length / a;
  // Newton on s(t) = length; the speed never falls below min(a, b), so this converges in a few steps.
  let t = t0 + length / Math.max(a, b);
  for (let i = 0; i < 20; i++) {
    const err = arcLength(a, b, t0, t) - length;
    if (Math.abs(err) < 1e-6) break;
    t -= err / Math.hypot(a * Math.cos(t), b * Math.sin(t));
  }
  return t;
}

/**
 * n parameters spaced at equal arc length over the span centred on tc: from tc − span/2 to
 * tc + span/2 (`reverse` walks the other way, for text read along the bottom).
 */
export function spreadOnArc(
  a: number,
  b: number,
  tc: number,
  span: number,
  n: number,
  reverse = false,
): number[] {
  if (n === 1) return [tc];
  const start = tc - span / 2;
  const total = arcLength(a, b, start, tc + span / 2);
  const ts = Array.from({ length: n }, (_, i) => walk(a, b, start, (total * i) / (n - 1)));
  return reverse ? ts.reverse() : ts;
}

/** The span of parameter centred on tc whose arc is `length` long (for the layout of a text). */
export function spanForLength(a: number, b: number, tc: number, length: number): number {
  if (a === b) return length / a;
  return walk(a, b, tc, length / 2) - walk(a, b, tc, -length / 2);
}

/**
 * A regular five-pointed star inscribed in the circle of radius 1, one tip up: the centre image of
 * company seals (its size is the tip-to-tip circle). Inner radius sin 18° / sin 54° of the outer.
 */
export function starPath(): string {
  const inner = Math.sin(rad(18)) / Math.sin(rad(54));
  const pts: string[] = [];
  for (let k = 0; k < 10; k++) {
    const r = k % 2 === 0 ? 1 : inner;
    const t = rad(k * 36);
    pts.push(`${fmt(r * Math.sin(t))} ${fmt(-r * Math.cos(t))}`);
  }
  return `M${pts.join('L')}Z`;
}

/** A number for SVG and JSON: at most 3 decimals, no trailing zeros, no "-0". */
export function fmt(v: number, digits = 3): string {
  const f = 10 ** digits;
  const r = Math.round(v * f) / f;
  return Object.is(r, -0) ? '0' : String(r);
}

export function round2(v: number): number {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? 0 : r;
}
