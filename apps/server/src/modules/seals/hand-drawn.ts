/**
 * Hand-drawn personal seals. The picture is the applicant's own upload (a transparent PNG of at most
 * 50 KB), and it is redrawn at the seal's own size, its millimetres at 400 dpi as every generated seal
 * image is, when the seal is applied for or changed: signing then only ever decodes a picture of the
 * seal's size, whatever was uploaded (a 31 KB PNG can declare 16384 × 16384 pixels). The redrawing runs
 * in the worker pool, and refuses undecoded a picture over LIMITS.handDrawnMaxPixels.
 */
import { AppError, LIMITS, pngSize } from '@openseal/core';
import type { Db } from '@openseal/db';
import { imagePx, SealImageError } from '@openseal/seal-image';
import type { WorkPool } from '../../workers/work-pool';
import type { FilesService } from '../files/files.service';
import type { AuthContext } from '../session/session.service';
import { sha256 } from './seal-context';
import { pngHasTransparency } from './seal-render';

export interface SealSize {
  widthMm: number;
  heightMm: number;
}

export interface FittedPicture {
  fileKey: string;
  sha256: string;
}

export function createHandDrawn(deps: { files: FilesService; work: Pick<WorkPool, 'fitPictureToSeal'> }) {
  const { files } = deps;

  /** The caller's own uploaded PNG, transparent, at most 50 KB. */
  async function read(db: Db, ctx: AuthContext, fileKey: string | undefined): Promise<Buffer> {
    if (!fileKey) throw new AppError('seal.handDrawnRequired');
    const own = await files.requireOwn(db, ctx, fileKey).catch((err: unknown) => {
      if (err instanceof AppError && err.key === 'file.accessDenied') return null;
      throw err;
    });
    const file = own && (await files.readInternal(db, fileKey));
    if (!file) throw new AppError('seal.handDrawnRequired');
    if (file.file.content_type !== 'image/png' || file.bytes.length > LIMITS.sealImageMaxBytes)
      throw new AppError('seal.handDrawnRequired');
    if (!pngHasTransparency(file.bytes)) throw new AppError('seal.handDrawnNotTransparent');
    return file.bytes;
  }

  /** The upload redrawn at the seal's size in the worker pool, not stored (a temporary preview). */
  async function preview(db: Db, ctx: AuthContext, fileKey: string | undefined, size: SealSize) {
    const bytes = await read(db, ctx, fileKey);
    try {
      return await deps.work.fitPictureToSeal(bytes, size, { maxPixels: LIMITS.handDrawnMaxPixels });
    } catch (err) {
      throw refusalOf(err);
    }
  }

  /** The upload redrawn at the seal's size and stored beside it (same owner, purpose sealImage). */
  async function fit(
    db: Db,
    ctx: AuthContext,
    fileKey: string | undefined,
    size: SealSize,
  ): Promise<FittedPicture> {
    const fitted = (await preview(db, ctx, fileKey, size)).png;
    const stored = await files.upload(db, ctx, {
      bytes: fitted,
      fileName: 'hand-drawn-seal.png',
      purpose: 'sealImage',
    });
    return { fileKey: stored.fileKey, sha256: stored.sha256 };
  }

  /**
   * The picture a seal is made with: the stored one when it already has the seal's size in pixels (fitted
   * when applied for), otherwise fitted now (applications made before pictures were fitted).
   */
  async function fitted(
    db: Db,
    ctx: AuthContext,
    fileKey: string | undefined,
    size: SealSize,
  ): Promise<FittedPicture> {
    const bytes = await read(db, ctx, fileKey);
    const has = pngSize(bytes);
    if (has && has.width === imagePx(size.widthMm) && has.height === imagePx(size.heightMm))
      return { fileKey: fileKey!, sha256: sha256(bytes) };
    return fit(db, ctx, fileKey, size);
  }

  return { read, preview, fit, fitted };
}

export type HandDrawn = ReturnType<typeof createHandDrawn>;

/** The picture engine's refusals as catalogued errors. */
function refusalOf(err: unknown): unknown {
  if (!(err instanceof SealImageError)) return err;
  switch (err.code) {
    case 'image-too-many-pixels': {
      const d = err.details as { width: number; height: number; maxPixels: number };
      const params = { width: d.width, height: d.height, maxPixels: d.maxPixels };
      return new AppError('file.imagePixels', { cause: err, params, details: params });
    }
    case 'image-too-large':
      return new AppError('seal.imageTooLarge', { cause: err });
    default:
      return new AppError('seal.handDrawnRequired', { cause: err, details: { reason: err.message } });
  }
}
