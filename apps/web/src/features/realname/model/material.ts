/** Manual-path materials (spec section 5): jpg, png or pdf, at most 10 MB, one file at a time. */
export const MATERIAL_MAX_BYTES = 10 * 1024 * 1024;
export const MATERIAL_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';

const EXTENSIONS = ['jpg', 'jpeg', 'png', 'pdf'];

export type MaterialProblem = 'type' | 'size' | null;

export function materialProblem(file: { name: string; size: number }): MaterialProblem {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!EXTENSIONS.includes(ext)) return 'type';
  if (file.size > MATERIAL_MAX_BYTES) return 'size';
  return null;
}

/** Wrong micro-payment amounts allowed before the flow fails (the server counts; the page shows it). */
export const MAX_AMOUNT_ATTEMPTS = 3;

/** "0.37" (yuan) to 37 cents; null when it is not an amount between 0.01 and 0.99. */
export function amountToCents(raw: string | undefined): number | null {
  const value = (raw ?? '').trim();
  if (!/^0?\.\d{1,2}$/.test(value)) return null;
  const cents = Math.round(Number(value) * 100);
  return cents >= 1 && cents <= 99 ? cents : null;
}
