import { createHash } from 'node:crypto';
import { checkSigningAllowed } from '../encryption';
import { PdfError } from '../errors';
import { PdfDict, PdfName, PdfRef, PdfStream, type PdfObject } from '../objects';
import { openPdf, type PdfDocument } from '../reader';
import { toSource, type ByteSource } from '../source';
import { IncrementalUpdate } from '../writer';
import { signedFields } from './form';
import { copyOriginal, withFiles, type ByteSink } from './sign-pdf';

export interface DssData {
  certificates: Uint8Array[];
  ocspResponses?: Uint8Array[];
  crls?: Uint8Array[];
  /**
   * Also write a /VRI entry for every signature in the file, keyed by the upper-case SHA-1 hex of the
   * signature's /Contents (as stored, padding included), listing all the data above. Default false.
   */
  vri?: boolean;
}

export interface AppendDssResult {
  bytes?: Uint8Array;
  size: number;
  /** VRI keys written, one per signature. */
  vriKeys: string[];
}

/**
 * PAdES B-LT: adds the validation data (certificates, OCSP responses, CRLs) to the document security
 * store in a further incremental update. An existing /DSS is kept and merged; duplicates are dropped.
 */
export async function appendDss(
  input: ByteSource | Uint8Array,
  dss: DssData,
  output?: ByteSink,
  options: { password?: string } = {},
): Promise<AppendDssResult> {
  const doc = openPdf(toSource(input), options.password ? { password: options.password } : {});
  // The DSS belongs to signing: an encrypted file takes it under the same permissions as a signature.
  checkSigningAllowed(doc, Boolean(options.password));
  const update = new IncrementalUpdate(doc);
  const vriKeys = buildDss(doc, update, dss);
  const section = update.build();
  const total = doc.size + section.length;
  const result = output ? undefined : new Uint8Array(total);
  await copyOriginal(doc.source, undefined, output, result);
  if (output) await output.write(section);
  else result!.set(section, doc.size);
  const out: AppendDssResult = { size: total, vriKeys };
  if (result) out.bytes = result;
  return out;
}

export async function appendDssFile(
  inPath: string,
  outPath: string,
  dss: DssData,
  options: { password?: string } = {},
): Promise<AppendDssResult> {
  return withFiles(inPath, outPath, (src, sink) => appendDss(src, dss, sink, options));
}

/** Writes the DSS into `update` (merging with the file's own); exported for the signer, which can put it in the signed revision. */
export function buildDss(doc: PdfDocument, update: IncrementalUpdate, data: DssData): string[] {
  const catalog = doc.catalog();
  const dssObj = catalog.get('DSS');
  const old = doc.resolveDict(dssObj);
  const dss = old?.clone() ?? new PdfDict([['Type', new PdfName('DSS')]]);

  const merge = (key: 'Certs' | 'OCSPs' | 'CRLs', items: Uint8Array[] | undefined): PdfRef[] => {
    const existing = doc.resolve(dss.get(key));
    const arr: PdfObject[] = Array.isArray(existing) ? [...existing] : [];
    const known = new Map<string, PdfRef>();
    for (const r of arr) {
      const s = doc.resolve(r);
      if (r instanceof PdfRef && s instanceof PdfStream) {
        try {
          known.set(sha256(doc.streamData(s)), r);
        } catch (e) {
          if (!(e instanceof PdfError)) throw e;
        }
      }
    }
    const refs: PdfRef[] = [];
    for (const item of items ?? []) {
      const h = sha256(item);
      let ref = known.get(h);
      if (!ref) {
        ref = update.addStream(new PdfDict(), item, { compress: true });
        known.set(h, ref);
        arr.push(ref);
      }
      refs.push(ref);
    }
    if (arr.length) dss.set(key, arr);
    return refs;
  };
  const certs = merge('Certs', data.certificates);
  const ocsps = merge('OCSPs', data.ocspResponses);
  const crls = merge('CRLs', data.crls);

  const vriKeys: string[] = [];
  if (data.vri) {
    const vri = doc.resolveDict(dss.get('VRI'))?.clone() ?? new PdfDict();
    for (const f of signedFields(doc)) {
      const contents = f.value.getString('Contents')!;
      const key = createHash('sha1').update(contents.bytes).digest('hex').toUpperCase();
      const entry = new PdfDict();
      if (certs.length) entry.set('Cert', certs);
      if (ocsps.length) entry.set('OCSP', ocsps);
      if (crls.length) entry.set('CRL', crls);
      vri.set(key, entry);
      vriKeys.push(key);
    }
    if (vri.size) dss.set('VRI', vri);
  }

  if (dssObj instanceof PdfRef && old) update.set(dssObj, dss);
  else {
    const ref = update.allocate();
    update.set(ref, dss);
    const rootRef = doc.trailer().get('Root');
    if (!(rootRef instanceof PdfRef)) throw new PdfError('damaged', 'the trailer /Root is not a reference');
    // Another change of this update (the signature's form) may already have rewritten the catalog.
    const pending = update.pending(rootRef);
    const base = pending instanceof PdfDict ? pending : catalog.clone();
    update.set(rootRef, base.set('DSS', ref));
  }
  return vriKeys;
}

function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}
