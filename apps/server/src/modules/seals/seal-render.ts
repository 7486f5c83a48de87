/**
 * From what an application says to a seal template and its PNG, through the seal-image engine (the
 * same templates the browser draws). The server never accepts a template from the client: the text of
 * a seal is the organisation's or the person's registered name, so templates are always made here.
 */
import { AppError, LIMITS, contracts } from '@openseal/core';
import { createTemplate, type SealSpec, type SealTemplate, type SealType } from '@openseal/seal-image';
import { renderPng } from '@openseal/seal-image/node';

type SealKind = contracts.SealKind;

export interface SealText {
  /** The text on the upper arc or in the grid: the organisation's or the person's name. */
  nameText: string;
  title: string | null;
  title0: string | null;
  serial: string | null;
}

/** The seal's display name: the organisation and the kind ("…有限公司合同专用章"), or the person's name. */
export function sealDisplayName(kind: SealKind, text: SealText): string {
  const info = contracts.SEAL_KIND_INFO[kind];
  if (info.subject === 'person') return text.nameText;
  return `${text.nameText}${text.title ?? ''}`;
}

/** The texts a kind draws: fixed titles from the kind, the applicant's for custom kinds. */
export function sealText(
  kind: SealKind,
  sealType: contracts.SealDrawType,
  input: { name: string; uscc?: string | null; title?: string | undefined; title0?: string | undefined },
): SealText {
  const info = contracts.SEAL_KIND_INFO[kind];
  if (info.subject === 'person') {
    // A two-character name reads "X X 之印" in the four corners; three characters take "印".
    const chars = [...input.name];
    const title = chars.length === 2 ? '之印' : chars.length === 3 ? '印' : null;
    return { nameText: input.name, title, title0: null, serial: null };
  }
  const title = info.custom ? (input.title ?? null) : info.title;
  return {
    nameText: input.name,
    title,
    title0: sealType === 4 ? (input.title0 ?? null) : null,
    // The invoice seal carries the taxpayer number (the credit code) across its centre.
    serial: kind === 'invoice' ? (input.uscc ?? null) : null,
  };
}

export function sealSpec(
  sealType: contracts.SealDrawType,
  text: SealText,
  size: { widthMm: number; heightMm: number },
  securityLines: boolean,
): SealSpec {
  return {
    sealType: sealType as SealType,
    name: text.nameText,
    ...(text.title ? { title: text.title } : {}),
    ...(text.title0 ? { title0: text.title0 } : {}),
    ...(text.serial ? { serial: text.serial } : {}),
    widthMm: size.widthMm,
    heightMm: size.heightMm,
    securityLines,
  };
}

/** The engine's refusals as catalogued errors. */
function toAppError(err: unknown): unknown {
  const e = err as { name?: string; code?: string; details?: Record<string, unknown> } | null;
  if (!e || e.name !== 'SealImageError') return err;
  switch (e.code) {
    case 'text-too-long':
    case 'text-too-short':
      return new AppError('seal.textLength', { cause: err, details: e.details ?? {} });
    case 'image-too-large':
      return new AppError('seal.imageTooLarge', { cause: err });
    default:
      return new AppError('seal.makeFailed', { cause: err, details: { reason: e.code } });
  }
}

export function makeTemplate(spec: SealSpec): SealTemplate {
  try {
    return createTemplate(spec);
  } catch (err) {
    throw toAppError(err);
  }
}

/** The transparent PNG of a template at 400 dpi, refused over the 50 KB of spec section 5. */
export async function renderSeal(template: SealTemplate): Promise<Buffer> {
  let png: Buffer;
  try {
    png = (await renderPng(template)).png;
  } catch (err) {
    throw toAppError(err);
  }
  if (png.length > LIMITS.sealImageMaxBytes) throw new AppError('seal.imageTooLarge');
  return png;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** True when a PNG can be transparent: an alpha channel (colour types 4 and 6) or a tRNS chunk. */
export function pngHasTransparency(png: Buffer): boolean {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  const colourType = png[25];
  if (colourType === 4 || colourType === 6) return true;
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + length;
  }
  return false;
}
