/**
 * Smoke tests against signatures made by other products (DSS, Adobe, node-signpdf), taken from the
 * third-party corpus when it is present next to the repository.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyCms, type CmsVerifyResult } from './verify';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const corpus = join(repoRoot, '..', 'shared', 'corpus', 'signed');
const present = existsSync(corpus);
if (!present) console.warn(`corpus not found at ${corpus}: skipping CMS corpus smoke tests`);

interface Extracted {
  cms: Uint8Array;
  signed: Uint8Array;
  subFilter?: string;
}

/** A test aid, not a PDF parser: every /ByteRange, the hex string in its gap, and the object's /SubFilter. */
function extractSignatures(file: string): Extracted[] {
  const pdf = readFileSync(join(corpus, file));
  const text = pdf.toString('latin1');
  const out: Extracted[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const [a, b, c, d] = m.slice(1).map(Number) as [number, number, number, number];
    const objStart = text.lastIndexOf(' obj', m.index);
    const objEnd = text.indexOf('endobj', m.index);
    const subFilter = /\/SubFilter\s*\/([A-Za-z0-9.]+)/.exec(text.slice(objStart, objEnd))?.[1];
    const hex = text.slice(a + b, c).replace(/[<>\s]/g, '');
    out.push({
      cms: new Uint8Array(Buffer.from(hex, 'hex')),
      signed: new Uint8Array(Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)])),
      subFilter,
    });
  }
  return out;
}

async function verifyFile(file: string): Promise<CmsVerifyResult[]> {
  const results: CmsVerifyResult[] = [];
  for (const sig of extractSignatures(file)) {
    results.push(
      await verifyCms({
        cms: sig.cms,
        subFilter: sig.subFilter,
        trust: { anchors: [] },
        digestOf: async (alg) =>
          new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(sig.signed).digest()),
      }),
    );
  }
  return results;
}

describe.skipIf(!present)('verifyCms on the third-party corpus', () => {
  it('DSS pdf-signed-original: valid RSA/SHA-256, signing-certificate-v2 matches', async () => {
    const [r] = await verifyFile('dss__pdf-signed-original.pdf');
    expect(r).toMatchObject({
      parsed: true,
      integrity: 'valid',
      digestAlgorithm: 'SHA-256',
      signatureAlgorithm: 'RSA PKCS#1 v1.5 with SHA-256',
      signingCertificateRef: 'match',
      chain: 'untrusted',
    });
    expect(r?.signer?.commonName).toBe('good-user');
  });

  it('DSS pdf-signed-corrupted: integrity invalid', async () => {
    const [r] = await verifyFile('dss__pdf-signed-corrupted.pdf');
    expect(r).toMatchObject({ parsed: true, integrity: 'invalid' });
  });

  it('DSS plain-ECDSA (BSI, brainpool): valid', async () => {
    const [r] = await verifyFile('dss__dss-PLAIN-ECDSA_TeleSec_PKS_eIDAS_QES_CA_1-baseline-b.pdf');
    expect(r).toMatchObject({ integrity: 'valid', signatureAlgorithm: 'plain ECDSA with SHA-256' });
    expect(r?.signer?.commonName).toBe('Scheibner, Doreen Veronika');
  });

  it('DSS pkcs7_sha1: both signatures intact, one adbe.pkcs7.sha1, whose SHA-1 is reported weak', async () => {
    const results = await verifyFile('dss__pkcs7_sha1.pdf');
    const subFilters = extractSignatures('dss__pkcs7_sha1.pdf').map((s) => s.subFilter);
    expect(subFilters).toContain('adbe.pkcs7.sha1');
    expect(results).toHaveLength(2);
    for (const r of results) expect(r.integrity, r.integrityReason).toBe('valid');
    const sha1 = results[subFilters.indexOf('adbe.pkcs7.sha1')];
    expect(sha1?.findings).toContainEqual({
      code: 'algorithm.weak',
      severity: 'indeterminate',
      params: { algorithm: 'SHA-1' },
    });
  });

  it('without trust anchors no corpus signature is valid: intact ones are indeterminate', async () => {
    for (const file of ['dss__pdf-signed-original.pdf', 'dss__pkcs7.pdf', 'signpdf__signed-once.pdf']) {
      for (const r of await verifyFile(file)) {
        expect(r.integrity, file).toBe('valid');
        expect(r.verdict, file).toBe('indeterminate');
        expect(r.subIndication, file).toBe('NO_CERTIFICATE_CHAIN_FOUND');
      }
    }
  });

  it('DSS unsupported signature algorithm: cannot be checked, indeterminate with a reason', async () => {
    const [r] = await verifyFile('dss__pades-unsupported-signature-algorithm.pdf');
    expect(r).toMatchObject({
      parsed: true,
      integrity: 'unknown',
      verdict: 'indeterminate',
      subIndication: 'CRYPTO_CONSTRAINTS_FAILURE',
    });
    expect(r?.integrityReason).toMatch(/unsupported signature algorithm/);
    expect(r?.findings[0]?.code).toBe('algorithm.unsupported');
  });

  it('DSS BadEncodedCMS: not parseable', async () => {
    const [r] = await verifyFile('dss__BadEncodedCMS.pdf');
    expect(r?.parsed).toBe(false);
    expect(r?.parseError).toBeTruthy();
  });

  it('DSS pkcs7: valid with a valid signature time-stamp', async () => {
    const [r] = await verifyFile('dss__pkcs7.pdf');
    expect(r?.integrity).toBe('valid');
    expect(r?.timestamp?.valid).toBe(true);
    expect(r?.timestamp?.time.toISOString()).toBe('2015-05-26T08:09:04.606Z');
    expect(r?.validAtSigningTime).toBe(true);
  });

  it('DSS LTA: signature and document time-stamp both valid', async () => {
    const [signature, docTimestamp] = await verifyFile('dss__dss-2058_dss-2058-LTA-test.pdf');
    expect(signature?.integrity).toBe('valid');
    expect(signature?.timestamp?.valid).toBe(true);
    expect(docTimestamp?.integrity).toBe('valid');
    expect(docTimestamp?.signer?.commonName).toBe('Universign Timestamping Unit 026');
  });

  it('node-signpdf signed-once: valid', async () => {
    const [r] = await verifyFile('signpdf__signed-once.pdf');
    expect(r).toMatchObject({ integrity: 'valid', signingCertificateRef: 'absent' });
    expect(r?.signer?.commonName).toBe('signpdf');
  });

  it('Acrobat Sign: valid, with archived revocation evidence read from the CMS', async () => {
    const [r] = await verifyFile('qpdf__minimal-signed-restricted.pdf');
    expect(r?.integrity).toBe('valid');
    expect(r?.revocation).toMatchObject({ status: 'good', source: 'cms' });
  });
});
