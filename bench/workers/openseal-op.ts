/**
 * OpenSeal's side of the trust-core benches, one operation per process:
 *   sign IN OUT | verify FILE | sign-rate FILE SECONDS [PNG WIDTH_MM HEIGHT_MM] | verify-rate SECONDS FILE...
 * sign-rate with a PNG draws it as the visible seal on page 1 (at 100, 100 mm), as the platform signs.
 * Keys, CA, timestamp unit and seal certificate are made in memory before the clock starts; signing is
 * PAdES B-T (CAdES with a timestamp token from the in-process unit), as the platform signs.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  buildCadesDetached,
  buildTimeStampReq,
  buildTimeStampResp,
  issueCertificate,
  MemoryKeyRecordStore,
  newSerialNumber,
  parseTimeStampReq,
  readTimeStampResp,
  SoftwareKeyStore,
  type CmsSigner,
} from '@openseal/pki';
import {
  bufferSource,
  openFileSource,
  signPdf,
  signPdfFile,
  verifyPdf,
  type PdfSignOptions,
} from '@openseal/pdf';
import { measure } from './measure';

async function setup() {
  const keys = new SoftwareKeyStore({ kek: new Uint8Array(32).fill(7), records: new MemoryKeyRecordStore() });
  const rootKey = await keys.generate('EC-P256', 'root');
  const root = await issueCertificate({
    profile: 'root-ca',
    subject: { commonName: 'Bench Root' },
    publicKeySpki: rootKey.publicKeySpki,
    issuer: { selfSigned: rootKey },
  });
  const make = async (profile: 'tsa' | 'org-seal', commonName: string) => {
    const key = await keys.generate('EC-P256', commonName);
    const cert = await issueCertificate({
      profile,
      subject: {
        commonName,
        organization: '杭州示例科技有限公司',
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      publicKeySpki: key.publicKeySpki,
      issuer: { certificate: root.der, key: rootKey },
    });
    return { certificate: cert.der, chain: [], key } satisfies CmsSigner;
  };
  const tsa = await make('tsa', 'Bench TSA');
  const signer = await make('org-seal', '合同专用章');
  const timestamp = async (signature: Uint8Array) => {
    const req = buildTimeStampReq(createHash('sha256').update(signature).digest(), { certReq: true });
    const resp = await buildTimeStampResp({
      tsa,
      request: parseTimeStampReq(req),
      serialNumber: newSerialNumber(),
      genTime: new Date(),
      policy: '1.2.3.4.1',
    });
    return readTimeStampResp(resp).token!;
  };
  const options: PdfSignOptions = {
    sign: (digest) => buildCadesDetached({ digest, signer, timestamp }),
    signingTime: new Date(),
    reason: 'bench',
  };
  return { options, trust: { anchors: [root.der] } };
}

const [op, ...args] = process.argv.slice(2);
const { options, trust } = await setup();

switch (op) {
  case 'sign': {
    const [input, output] = args as [string, string];
    await measure(() => signPdfFile(input, output, options));
    break;
  }
  case 'verify': {
    const [file] = args as [string];
    await measure(async () => {
      const source = openFileSource(file);
      try {
        const report = await verifyPdf(source, { trust });
        if (report.verdict !== 'valid') throw new Error(`expected a valid signature, got ${report.verdict}`);
      } finally {
        source.close();
      }
    });
    break;
  }
  case 'sign-rate': {
    const [file, seconds, png, width, height] = args as [string, string, string?, string?, string?];
    const bytes = readFileSync(file);
    const rateOptions: PdfSignOptions = png
      ? {
          ...options,
          appearance: {
            png: readFileSync(png),
            page: 1,
            x: 100,
            y: 100,
            width: Number(width),
            height: Number(height),
          },
        }
      : options;
    await signPdf(bytes, rateOptions); // warm-up
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < Number(seconds) * 1000) {
      await signPdf(bytes, rateOptions);
      n++;
    }
    const ms = performance.now() - t0;
    process.stdout.write(`${JSON.stringify({ signatures: n, ms, signaturesPerSecond: (n * 1000) / ms })}\n`);
    break;
  }
  case 'verify-rate': {
    const [seconds, ...files] = args as [string, ...string[]];
    const buffers = files.map((f) => readFileSync(f));
    const t0 = performance.now();
    let n = 0;
    let errors = 0;
    while (performance.now() - t0 < Number(seconds) * 1000) {
      for (const b of buffers) {
        try {
          await verifyPdf(bufferSource(b), { trust });
        } catch {
          errors++;
        }
        n++;
      }
    }
    const ms = performance.now() - t0;
    process.stdout.write(
      `${JSON.stringify({ verifications: n, errors, ms, verificationsPerSecond: (n * 1000) / ms })}\n`,
    );
    break;
  }
  default:
    process.stderr.write(`unknown op ${op}\n`);
    process.exit(2);
}
