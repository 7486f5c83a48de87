import { readFileSync } from 'node:fs';
import type { Bench } from '../lib/bench';
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

    const result = await ctx.load('/v1/signFile/verify/pdf', {
      method: 'POST',
      headers: { 'content-type': form.contentType },
      bodyBase64: form.body.toString('base64'),
    });
    return [
      {
        bench: 'verify-pdf',
        result,
        extra: { verificationsPerSecond: round(result.rps, 1), fileKb: Math.round(signed.length / 1024) },
      },
    ];
  },
};
