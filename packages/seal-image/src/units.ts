/** Spec section 9: seal images are drawn at 400 dpi, px = mm / 25.4 × 400. */
export const SEAL_DPI = 400;
export const MM_PER_INCH = 25.4;

/** Exact pixels for a length in millimetres (for positions and sizes inside the picture). */
export function mmToPx(mm: number): number {
  return (mm / MM_PER_INCH) * SEAL_DPI;
}

/** Whole pixels of the picture for its real size (42 mm → 661 px). */
export function imagePx(mm: number): number {
  return Math.round(mmToPx(mm));
}

/**
 * Generated seal image limit of spec sections 5 and 9 ("50K"). Read as 50 000 bytes, the stricter of
 * the two usual readings, so a check that means 50 × 1024 passes too.
 */
export const MAX_SEAL_PNG_BYTES = 50_000;
