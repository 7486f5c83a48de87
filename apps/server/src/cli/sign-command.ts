/**
 * `openseal sign FILE -o OUT [--seal CODE] [--page N --x MM --y MM] [--size MM] [--level B-T|B-LT] [--password PW]`
 * Signs with a seal certificate of the local data directory. Exit 0 signed, 1 failed, 2 unusable input.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Io } from './io';

export const SIGN_HELP = `openseal sign FILE -o OUT [options]

  -o, --output OUT      where to write the signed PDF (required; never the input itself)
  --seal CODE           the made seal that signs, by its code: its certificate and its image (default: the
                        demo organisation's contract seal, which openseal seed makes)
  --page N              page for the visible seal (default: the last page)
  --x MM, --y MM        seal centre, in mm from the page's left and top edges (default: 35 mm from the
                        right edge, 45 mm from the bottom)
  --size MM             seal width in mm, the height in the seal's proportion (default: the seal's own size)
  --invisible           no visible seal
  --level B-T|B-LT      PAdES level (default B-T: signature with a trusted timestamp; B-LT adds
                        certificates, OCSP and CRLs in a DSS)
  --seam                also a riding-seam seal: the seal image cut into one strip per page along the
                        right edge, so the pages fanned out show the whole seal (one signature)
  --certify 1|2|3       certify the document (DocMDP; only as its first signature): 1 no changes,
                        2 form filling and signing, 3 also annotations. Without it, the first
                        signature on an unsigned file certifies at PDF_CERTIFY_LEVEL (default 2)
  --reason TEXT         reason recorded in the signature
  --proof FILE          also write the evidence-log proof of this signing act (check it with
                        openseal evidence verify FILE)
  --password PW         password of an encrypted PDF (user or owner); without it the empty user
                        password is tried. The signed file stays encrypted with the same key; a file
                        whose permissions forbid filling in forms is signed only with the owner password`;

export async function signCommand(argv: string[], io: Io): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        seal: { type: 'string' },
        page: { type: 'string' },
        x: { type: 'string' },
        y: { type: 'string' },
        size: { type: 'string' },
        invisible: { type: 'boolean' },
        level: { type: 'string' },
        reason: { type: 'string' },
        seam: { type: 'boolean' },
        certify: { type: 'string' },
        proof: { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  const o = args.values;
  if (o.help) return (io.out(`${SIGN_HELP}\n`), 0);
  const [file, ...extra] = args.positionals;
  if (!file || extra.length) return usage(io, 'give exactly one input FILE');
  if (!o.output) return usage(io, 'give the output file with -o OUT');
  if (!existsSync(file)) return usage(io, `no such file: ${file}`);
  if (resolve(file) === resolve(o.output)) return usage(io, 'the output must be another file than the input');
  const level = o.level ?? 'B-T';
  if (level !== 'B-T' && level !== 'B-LT') return usage(io, `--level must be B-T or B-LT, not ${level}`);
  const num = (name: string, v: string | undefined, min: number) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number ≥ ${min}`);
    return n;
  };
  const certify = o.certify === undefined ? undefined : Number(o.certify);
  if (certify !== undefined && certify !== 1 && certify !== 2 && certify !== 3)
    return usage(io, `--certify must be 1, 2 or 3, not ${o.certify}`);
  let page: number | undefined, x: number | undefined, y: number | undefined, size: number | undefined;
  try {
    page = num('page', o.page, 1);
    x = num('x', o.x, 0);
    y = num('y', o.y, 0);
    size = num('size', o.size, 5);
  } catch (err) {
    return usage(io, (err as Error).message);
  }

  // The database starts (PGlite: half a second) while the signing code loads and the file is read; it
  // is awaited, and its failure reported, only once the file has proved signable.
  const opening = import('../local-platform').then(({ openLocalPlatform }) => openLocalPlatform());
  opening.catch(() => {});
  const closeUnused = () => opening.then((p) => p.close()).catch(() => {});
  const { localSeal } = await import('../modules/signing/local-seal');
  const { recordAudit } = await import('../modules/audit/audit.repository');
  const { createPdfSigning, pdfErrorToAppError } = await import('../modules/signing/pdf-signing');
  const { checkSigningAllowed, openFileSource, openPdf, PdfError } = await import('@openseal/pdf');
  const { AppError, messageFor } = await import('@openseal/core');

  // An encrypted file must open with the password (or the empty one) and allow signing; then the page
  // of the visible seal, in mm: by default the last page.
  let place: { page: number; widthMm: number; heightMm: number } | undefined;
  {
    const source = openFileSource(file);
    try {
      const doc = openPdf(source, o.password ? { password: o.password } : {});
      checkSigningAllowed(doc, Boolean(o.password));
      const pages = o.invisible ? [] : doc.pages();
      const n = page ?? pages.length;
      const p = pages[n - 1];
      if (!o.invisible && !p) {
        await closeUnused();
        return usage(io, `the file has ${pages.length} page(s); --page ${n} is outside it`);
      }
      if (p) {
        const box = p.cropBox ?? p.mediaBox;
        const turned = p.rotate % 180 !== 0;
        place = {
          page: n,
          widthMm: ((turned ? box[3] - box[1] : box[2] - box[0]) * 25.4) / 72,
          heightMm: ((turned ? box[2] - box[0] : box[3] - box[1]) * 25.4) / 72,
        };
      }
    } catch (err) {
      await closeUnused();
      if (err instanceof PdfError) {
        const refusal = pdfErrorToAppError(err);
        if (refusal instanceof AppError && refusal.key !== 'pdf.unreadable')
          return usage(io, messageFor(refusal.key, 'en', refusal.params));
        return usage(io, `unusable PDF: ${err.message}`);
      }
      throw err;
    } finally {
      source.close();
    }
  }

  let platform;
  try {
    platform = await opening;
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  try {
    const db = platform.database.db;
    const seal = await localSeal(db, platform.files, o.seal);
    if ('refusal' in seal) return usage(io, seal.refusal);
    const { sealCode, serial, png } = seal;
    const width = size ?? seal.widthMm;
    const height = size === undefined ? seal.heightMm : (size * seal.heightMm) / seal.widthMm;
    // Default place: near the bottom-right corner of the page, where a company seal usually goes.
    const appearance = place && {
      png,
      page: place.page,
      x: x ?? Math.max(width / 2, place.widthMm - 35),
      y: y ?? Math.max(height / 2, place.heightMm - 45),
      width,
      height,
    };
    const signing = createPdfSigning({
      pki: platform.pki,
      evidence: platform.evidence,
      work: platform.work,
      certifyLevel: platform.config.pdfCertifyLevel,
    });
    const result = await signing.signFile(db, {
      inPath: file,
      outPath: o.output,
      serial,
      level,
      appearance,
      reason: o.reason,
      certify: certify as 1 | 2 | 3 | undefined,
      ridingSeam: o.seam ? { png, y: 100, width, height } : undefined,
      sealCode,
      actor: 'cli',
      ...(o.password ? { password: o.password } : {}),
    });
    // Every use of a seal is on record: the evidence leaf above, and the organisation's audit log.
    await recordAudit(db, {
      actorPersonId: null,
      organizationId: seal.organizationId,
      action: 'seal.cliSign',
      targetType: 'seal',
      targetId: sealCode,
      detail: { field: result.fieldName, serial, level, evidenceIndex: result.evidenceIndex ?? null },
    });
    if (o.proof && result.evidenceIndex !== undefined) {
      // Whoever runs the command holds the platform's database, so the bundle opens every field.
      const bundle = await platform.evidence.bundleFor(result.evidenceIndex, { open: 'all' });
      writeFileSync(o.proof, `${JSON.stringify(bundle, null, 2)}\n`);
    }
    io.out(
      `signed ${o.output}: field ${result.fieldName}, ${level}, seal ${sealCode}, certificate ${serial}, ` +
        `${result.size} bytes, evidence leaf ${result.evidenceIndex}\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      const message = messageFor(err.key, 'en', err.params);
      return usage(io, message);
    }
    throw err;
  } finally {
    await platform.close();
  }
}

class UsageError extends Error {}

function usage(io: Io, reason: string): number {
  io.err(`openseal sign: ${reason.split('\n')[0]}\n`);
  return 2;
}
