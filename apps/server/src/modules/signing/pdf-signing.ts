/**
 * PAdES signing with a platform certificate: the PDF package writes the incremental update and asks for a
 * CMS over the byte-range digest; the PKI builds it (CAdES, signing-certificate-v2) with a timestamp from
 * the platform's timestamp unit (B-T); B-LT adds the validation data in a DSS update.
 */
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import { appendDss, openFileSource, PdfError, signPdfFile, type PdfSignOptions } from '@openseal/pdf';
import { buildCadesDetached, describeCertificate } from '@openseal/pki';
import { open, rm } from 'node:fs/promises';
import type { PkiService } from '../pki/pki.service';

export type PadesLevel = 'B-T' | 'B-LT';

export interface SignFileRequest {
  inPath: string;
  outPath: string;
  /** Serial number of the signing certificate (hex). */
  serial: string;
  level?: PadesLevel;
  appearance?: PdfSignOptions['appearance'];
  ridingSeam?: PdfSignOptions['ridingSeam'];
  certify?: PdfSignOptions['certify'];
  reason?: string;
  location?: string;
}

/** Turns the PDF package's refusals into catalogued errors the API and CLI can show. */
export function pdfErrorToAppError(err: unknown): unknown {
  if (!(err instanceof PdfError)) return err;
  switch (err.code) {
    case 'encrypted':
      return new AppError('pdf.encrypted', { cause: err });
    case 'too-complex':
    case 'timeout':
      return new AppError('pdf.tooComplex', { cause: err, details: { reason: err.message } });
    case 'certified':
      return new AppError('pdf.certifiedNoChanges', { cause: err });
    case 'page-out-of-range':
      return new AppError('pdf.pageOutOfRange', { cause: err });
    default:
      return new AppError('pdf.unreadable', { cause: err, params: { reason: err.message } });
  }
}

export function createPdfSigning(deps: { pki: PkiService }) {
  const { pki } = deps;

  async function signFile(db: Db, req: SignFileRequest) {
    const signer = await pki.signer(db, req.serial);
    const holder = describeCertificate(signer.certificate);
    const level = req.level ?? 'B-T';
    const target = level === 'B-LT' ? `${req.outPath}.b-t` : req.outPath;
    try {
      const signed = await signPdfFile(req.inPath, target, {
        sign: (digest) =>
          buildCadesDetached({ digest, signer, timestamp: (value) => pki.timestampToken(value) }),
        signingTime: new Date(),
        name: holder.commonName,
        reason: req.reason,
        location: req.location,
        appearance: req.appearance,
        ridingSeam: req.ridingSeam,
        certify: req.certify,
      });
      if (level === 'B-LT') {
        const dss = await pki.validationData(db, req.serial);
        const source = openFileSource(target);
        const out = await open(req.outPath, 'w');
        try {
          await appendDss(source, dss, { write: async (chunk) => void (await out.write(chunk)) });
        } finally {
          source.close();
          await out.close();
        }
        await rm(target, { force: true });
      }
      return { ...signed, level, serial: req.serial, signer: holder.commonName };
    } catch (err) {
      await rm(target, { force: true }).catch(() => {});
      throw pdfErrorToAppError(err);
    }
  }

  return { signFile };
}

export type PdfSigning = ReturnType<typeof createPdfSigning>;
