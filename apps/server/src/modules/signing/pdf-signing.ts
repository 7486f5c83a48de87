/**
 * PAdES signing with a platform certificate: the PDF package writes the incremental update and asks for a
 * CMS over the byte-range digest; the PKI builds it (CAdES, signing-certificate-v2) with a timestamp from
 * the platform's timestamp unit (B-T); B-LT also embeds the validation data (certificates, OCSP, CRLs) in
 * the document security store.
 */
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import { PdfError, type PdfSignOptions, type PdfSignResult } from '@openseal/pdf';
import { buildCadesDetached, describeCertificateCached } from '@openseal/pki';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EvidenceService } from '../evidence/evidence.service';
import type { PkiService } from '../pki/pki.service';
import type { WorkPool } from '../../workers/work-pool';

export type PadesLevel = 'B-T' | 'B-LT';

/** What signing needs of a certificate row, when the caller has read it already (with its seal). */
export type SignerCertificate = Parameters<PkiService['signerOf']>[0];

export interface SignRequest {
  /** Serial number of the signing certificate (hex). */
  serial: string;
  /** The certificate's row, read with the seal: then the signer reads nothing more. */
  certificate?: SignerCertificate;
  level?: PadesLevel;
  appearance?: PdfSignOptions['appearance'];
  ridingSeam?: PdfSignOptions['ridingSeam'];
  /** Certify with this DocMDP level whatever the file holds (refused when it is already signed). */
  certify?: PdfSignOptions['certify'];
  reason?: string;
  location?: string;
  /** Who signs (an opaque account id; the evidence log is public) and with which seal. */
  actor?: string;
  sealCode?: string;
  /** The caller records the act itself (a flow writes its leaf with the flow's state change). */
  skipEvidence?: boolean;
  /** Password of an encrypted PDF (user or owner); without it the empty user password is tried. */
  password?: string;
  /**
   * More signatures will follow on this file (another placement, another signer): a certification at
   * P=1, which forbids every later change, would refuse them, so the first signature certifies at P=2.
   */
  moreToFollow?: boolean;
}

export interface SignFileRequest extends SignRequest {
  inPath: string;
  outPath: string;
}

/** Turns the PDF package's refusals into catalogued errors the API and CLI can show. */
export function pdfErrorToAppError(err: unknown): unknown {
  if (!(err instanceof PdfError)) return err;
  switch (err.code) {
    case 'encrypted':
      return new AppError('pdf.encrypted', { cause: err });
    case 'not-permitted':
      return new AppError('pdf.signNotPermitted', { cause: err });
    case 'password-required':
      return new AppError('pdf.passwordRequired', { cause: err });
    case 'wrong-password':
      return new AppError('pdf.passwordWrong', { cause: err });
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

/**
 * The PDF work (reading, the seal image, the incremental update, streaming and hashing the file) runs in
 * the worker pool; the `sign` callback runs here, on the main thread, where the key store is: a PKCS#11
 * session or an unwrapped software key is not something to hand to a worker, and building the CMS with
 * its timestamp is a few milliseconds against the file's pass.
 */
export function createPdfSigning(deps: {
  pki: PkiService;
  evidence?: EvidenceService;
  work: Pick<WorkPool, 'signPdfFile'>;
  /**
   * DocMDP level of the platform's first signature on an unsigned file (PDF_CERTIFY_LEVEL, default 2:
   * form filling and signing stay open); later signatures approve. 0: never certify. 1 (no change at
   * all afterwards) only where no other signature follows (see SignRequest.moreToFollow), else 2.
   */
  certifyLevel?: 0 | 1 | 2 | 3;
}) {
  const { pki } = deps;
  const certifyLevel = deps.certifyLevel ?? 2;

  /**
   * One signature, file to file (a small file read whole and signed in memory in the worker, a large one
   * streamed): the signer's certificate (its summary parsed once per certificate), the CMS with its
   * timestamp, and the act in the evidence log unless the caller records it.
   */
  async function signFile(db: Db, req: SignFileRequest) {
    // Signing writes the output while reading the input: one path for both would destroy the file.
    if (resolve(req.inPath) === resolve(req.outPath))
      throw new Error('the output must be another file than the input');
    try {
      return await signWith(db, req);
    } catch (err) {
      await rm(req.outPath, { force: true }).catch(() => {});
      throw err;
    }
  }

  async function signWith(db: Db, req: SignFileRequest) {
    const signer = req.certificate ? await pki.signerOf(req.certificate) : await pki.signer(db, req.serial);
    const holder = describeCertificateCached(signer.certificate);
    const level = req.level ?? 'B-T';
    // B-LT: the validation data goes into the signed revision itself, so the signature still covers the
    // whole file (a DSS in a later update would leave the last signature short of the end).
    const dss = level === 'B-LT' ? await pki.validationData(db, req.serial) : undefined;
    let signed: Omit<PdfSignResult, 'bytes'>;
    try {
      signed = await deps.work.signPdfFile(req.inPath, req.outPath, {
        sign: (digest) =>
          buildCadesDetached({ digest, signer, timestamp: (value) => pki.timestampToken(value) }),
        signingTime: new Date(),
        name: holder.commonName,
        reason: req.reason,
        location: req.location,
        appearance: req.appearance,
        ridingSeam: req.ridingSeam,
        certify: req.certify,
        ...(req.certify === undefined && certifyLevel > 0
          ? { certifyIfFirst: (certifyLevel === 1 && req.moreToFollow ? 2 : certifyLevel) as 1 | 2 | 3 }
          : {}),
        dss,
        ...(req.password ? { password: req.password } : {}),
      });
    } catch (err) {
      throw pdfErrorToAppError(err);
    }
    // The act, with the file before and after (hashed by the signer in its pass), goes into the log.
    const leaf =
      deps.evidence && !req.skipEvidence
        ? await db.transaction().execute(async (trx) =>
            deps.evidence!.append(trx, {
              kind: 'sign',
              subject: req.sealCode ? `seal:${req.sealCode}` : `certificate:${req.serial}`,
              actor: req.actor ?? 'system',
              at: new Date().toISOString(),
              hashes: {
                fileBefore: signed.sha256Before,
                fileAfter: signed.sha256After,
                certificate: holder.fingerprintSha256,
              },
              data: { field: signed.fieldName, level, serial: req.serial, byteRange: signed.byteRange },
            }),
          )
        : undefined;
    return {
      ...signed,
      level,
      serial: req.serial,
      signer: holder.commonName,
      certificateSha256: holder.fingerprintSha256,
      evidenceIndex: leaf?.index,
    };
  }

  return { signFile };
}

export type PdfSigning = ReturnType<typeof createPdfSigning>;
