import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Bench } from '../lib/bench';
import { callApi } from '../lib/http';
import { runLoad } from '../lib/load';
import { BENCH_CACHE, benchPdf } from '../lib/pdf-gen';
import { note, round } from '../lib/report';
import {
  completedFlows,
  prepareTasks,
  sealImage,
  settle,
  signBody,
  signerFor,
  type PreparedTask,
} from '../lib/signing';
import { runWorker } from './trust-core';

/** The document every signature is made on: the trust-core benches' 100 KB file (incompressible image). */
const FILE_MB = 0.1;
/** Upper bound of concurrent sign requests, per core of the machine (see below). */
const CONNECTIONS_PER_CORE = 4;

/**
 * Signatures per second through the HTTP API: each request signs a different prepared quick flow
 * (POST /v1/sign/flowsTask, one seal placement: one PAdES B-T signature with a timestamp, the evidence
 * record and the flow's completion). Beside it, the trust-core signature of the same file with the same
 * seal image in one process, without HTTP, database, key store or evidence (`trustCoreSignaturesPerSecond`,
 * `ratioToTrustCore`), and without a visible seal (`trustCoreBareSignaturesPerSecond`).
 */
export const signFlow: Bench = {
  name: 'sign-flow',
  description: 'POST /v1/sign/flowsTask on prepared, will-authed quick flows (one signature each)',
  async run(ctx) {
    const { server, options } = ctx;
    const pdfPath = benchPdf(FILE_MB);
    const pdf = readFileSync(pdfPath);
    const signer = await signerFor(server.baseUrl);

    // One signature by hand first: fail loudly rather than measure error answers.
    const [probe] = await prepareTasks(signer, pdf, 1);
    await callApi(server.baseUrl, 'POST', '/v1/sign/flowsTask', {
      headers: signer.headers,
      body: signBody(signer, probe!),
    });

    // A signature costs the server tens of milliseconds of CPU or more: beyond a few requests per core
    // in flight, more connections only lengthen every request (past the load generator's 10 s timeout)
    // without adding throughput, and a short run would end before the first answers.
    const connections = Math.min(options.connections, CONNECTIONS_PER_CORE * availableParallelism());
    const warmCount = options.warmupS > 0 ? Math.max(connections, 20) : 0;
    const t0 = Date.now();
    const tasks = await prepareTasks(signer, pdf, warmCount + options.prepared, {
      onProgress: (n) => note(`${server.db}: sign-flow: ${n} tasks prepared`),
    });
    note(
      `${server.db}: sign-flow: ${tasks.length} tasks prepared (${warmCount} for the warm-up) in ` +
        `${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const spec = (list: PreparedTask[], durationS: number) => ({
      url: new URL('/v1/sign/flowsTask', server.baseUrl).href,
      method: 'POST' as const,
      headers: { ...signer.headers, 'content-type': 'application/json' },
      bodies: list.map((t) => JSON.stringify(signBody(signer, t))),
      connections,
      durationS,
    });
    // Each phase is followed by a wait for the signatures still in the server when it stopped.
    if (warmCount > 0) {
      const before = await completedFlows(signer);
      const warm = await runLoad(spec(tasks.slice(0, warmCount), options.warmupS));
      await settle(signer, before + (warm.bodiesUsed ?? 0));
    }
    const before = await completedFlows(signer);
    const result = await runLoad(spec(tasks.slice(warmCount), options.durationS));
    const signed = (await settle(signer, before + (result.bodiesUsed ?? 0))) - before;
    if (result.ok === 0)
      note(
        `${server.db}: sign-flow: no signature was answered within ${options.durationS} s; raise --duration`,
      );
    if (result.exhausted)
      note(
        `${server.db}: sign-flow: the ${options.prepared} prepared tasks ran out after ${result.durationS} s ` +
          `(of --duration ${options.durationS}); the figure covers that time. Raise --prepared for a full run.`,
      );

    // The same signatures without HTTP, in one process (trust-core worker): PAdES B-T of the same file,
    // with the seal's own image drawn at the same place, and without any visible seal.
    const image = await sealImage(signer);
    const pngPath = join(BENCH_CACHE, `seal-${server.db}.png`);
    writeFileSync(pngPath, image.png);
    const seconds = String(Math.min(options.durationS, 10));
    const rate = (extra: string[]): number | null => {
      try {
        const r = runWorker('openseal-op.ts', ['sign-rate', pdfPath, seconds, ...extra]);
        return typeof r.signaturesPerSecond === 'number' ? r.signaturesPerSecond : null;
      } catch (err) {
        note(`${server.db}: sign-flow: trust-core baseline failed: ${(err as Error).message}`);
        return null;
      }
    };
    const trustCore = rate([pngPath, String(image.widthMm), String(image.heightMm)]);
    const bare = rate([]);
    rmSync(pngPath, { force: true });

    return [
      {
        bench: 'sign-flow',
        result,
        extra: {
          connections,
          signaturesPerSecond: round(result.rps, 1),
          fileKb: FILE_MB * 1000,
          prepared: options.prepared,
          sent: result.bodiesUsed,
          signed,
          exhausted: result.exhausted,
          trustCoreSignaturesPerSecond: trustCore === null ? null : round(trustCore, 1),
          ratioToTrustCore: trustCore ? round(result.rps / trustCore, 3) : null,
          trustCoreBareSignaturesPerSecond: bare === null ? null : round(bare, 1),
        },
      },
    ];
  },
};
