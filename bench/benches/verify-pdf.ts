import { readFileSync } from 'node:fs';
import { bufferSource, verifyPdf as verifyInProcess } from '@openseal/pdf';
import { openLocalPlatform } from '../../apps/server/src/local-platform';
import type { PkiService } from '../../apps/server/src/modules/pki/pki.service';
import { uploadVerifyOptions } from '../../apps/server/src/modules/signing/verify.service';
import type { Bench, BenchContext } from '../lib/bench';
import { callApi } from '../lib/http';
import { benchPdf } from '../lib/pdf-gen';
import { round } from '../lib/report';
import {
  downloadFlowFile,
  multipart,
  postMultipart,
  prepareTasks,
  signBody,
  signerFor,
} from '../lib/signing';

/**
 * The same file verified without HTTP, one verification at a time, with the options the server gives
 * each upload (trust store, revocation answers from its database, limits): what the API's figure is read
 * against. In the server's process when it runs here (PGlite allows no second opener); for a cluster, in
 * this process on the same database, data directory and keys. Measured while the server is idle.
 */
async function inProcessRate(pki: PkiService, bytes: Uint8Array, seconds: number) {
  const once = async () => {
    const report = await verifyInProcess(bufferSource(bytes), await uploadVerifyOptions(pki));
    if (report.verdict !== 'valid') throw new Error(`in-process verification: ${report.verdict}`);
  };
  await once();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < seconds * 1000) {
    await once();
    n++;
  }
  return { n, ms: performance.now() - t0 };
}

/** The platform's PKI as the server sees it: the in-process server's, or one opened on its settings. */
async function serverPki(ctx: BenchContext): Promise<{ pki: PkiService; close(): Promise<void> }> {
  if (ctx.server.app) return { pki: ctx.server.app.pki, close: async () => {} };
  const local = await openLocalPlatform(ctx.server.env);
  return { pki: local.pki, close: () => local.close() };
}

/**
 * Verifications per second: the public POST /v1/signFile/verify/pdf (no login) with a PDF the platform
 * signed through its API in the prepare phase; every request parses the file, checks the signature, its
 * timestamp and certificate chain, records the act in the evidence log and keeps the report.
 */
export const verifyPdf: Bench = {
  name: 'verify-pdf',
  description: 'POST /v1/signFile/verify/pdf with a platform-signed 100 KB PDF (multipart)',
  async run(ctx) {
    const base = ctx.server.baseUrl;
    const signer = await signerFor(base);
    const [task] = await prepareTasks(signer, readFileSync(benchPdf(0.1)), 1);
    await callApi(base, 'POST', '/v1/sign/flowsTask', {
      headers: signer.headers,
      body: signBody(signer, task!),
    });
    const signed = await downloadFlowFile(signer, task!.flowId, task!.fileId);

    const form = multipart(signed, 'signed.pdf');
    // Fail loudly unless the platform finds its own signature valid.
    const report = await postMultipart<{ verdict: string; signatures: unknown[] }>(
      base,
      '/v1/signFile/verify/pdf',
      form,
    );
    if (report.verdict !== 'valid' || report.signatures.length !== 1)
      throw new Error(`expected one valid signature, got ${report.verdict} (${report.signatures.length})`);

    // Half before the load and half after, so a neighbour's burst on a shared machine weighs on both.
    const half = ctx.options.durationS / 2;
    const { pki, close } = await serverPki(ctx);
    const before = await inProcessRate(pki, signed, half).catch(async (err: unknown) => {
      await close();
      throw err;
    });
    const result = await ctx.load('/v1/signFile/verify/pdf', {
      method: 'POST',
      headers: { 'content-type': form.contentType },
      bodyBase64: form.body.toString('base64'),
    });
    const after = await inProcessRate(pki, signed, half).finally(close);
    const inProcess = ((before.n + after.n) * 1000) / (before.ms + after.ms);
    return [
      {
        bench: 'verify-pdf',
        result,
        extra: {
          verificationsPerSecond: round(result.rps, 1),
          fileKb: Math.round(signed.length / 1024),
          inProcessPerSecond: round(inProcess, 1),
          ratioToInProcess: round(result.rps / inProcess, 3),
        },
      },
    ];
  },
};
