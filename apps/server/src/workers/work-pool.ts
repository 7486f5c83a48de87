/**
 * The worker pool: parsing, verification, image work and the CPU part of signing run here, off the main
 * thread, so a small crafted upload cannot stall other requests (issue 13). Each task has a deadline
 * that runs from the moment a worker starts it; past it the worker is terminated (piscina replaces it)
 * and the caller gets `work.timeout`. A worker over its heap limit dies alone (`work.outOfMemory`), and
 * a task that waits too long for a worker, or finds the queue full, gets `work.busy`.
 */
import { MessageChannel } from 'node:worker_threads';
import Piscina from 'piscina';
import { AppError } from '@openseal/core';
import type { OfdLimits } from '@openseal/ofd';
import type { PdfSignOptions, PdfSignResult, PdfVerifyReport, VerifyPdfOptions } from '@openseal/pdf';
import type { TaskInput, TaskMessage, TaskName, TaskOutput, TaskResult } from './tasks';
import type { PdfPages } from '../modules/signing/pdf-pages';
import { fromWire, serveCallbacks, splitCallbacks, type Callbacks } from './wire';

/** How long each kind of task may run once started. The libraries' own deadlines come first. */
export const TASK_DEADLINES_MS: Record<TaskName, number> = {
  // The verifier's own deadline for uploads is 20 s (verify.service.ts): this is the backstop.
  verifyPdf: 30_000,
  // Streams the file once: a 200 MB file takes seconds; the rest is the main thread's CMS.
  signPdfFile: 120_000,
  readOfd: 15_000,
  readPdfPages: 15_000,
  fitPictureToSeal: 10_000,
  warm: 60_000,
};

/** How long a task may wait in the queue for a worker before it is refused as busy. */
const QUEUE_WAIT_MS = 60_000;

export interface WorkPool {
  /** packages/pdf `verifyPdf`, with `checkRevocation` answered on the main thread. */
  verifyPdf(bytes: Uint8Array, options: VerifyPdfOptions): Promise<PdfVerifyReport>;
  /** packages/pdf `signPdfFile`, with `sign` (the CMS over the digest) answered on the main thread. */
  signPdfFile(
    inPath: string,
    outPath: string,
    options: PdfSignOptions,
  ): Promise<Omit<PdfSignResult, 'bytes'>>;
  /** Reads an OFD package's structure (throws `OfdError`); answers its page count. */
  readOfd(bytes: Uint8Array, limits?: OfdLimits): Promise<{ pages: number }>;
  /** Page sizes of a PDF to sign (mm, as displayed), or its catalogued refusal; `password` opens an encrypted one. */
  readPdfPages(bytes: Uint8Array, password?: string): Promise<PdfPages>;
  /** An uploaded seal picture redrawn at the seal's size (seal-image `fitPictureToSeal`). */
  fitPictureToSeal(
    png: Uint8Array,
    size: { widthMm: number; heightMm: number },
    opts: { maxPixels: number },
  ): Promise<{ png: Buffer; widthPx: number; heightPx: number }>;
  /** Starts a worker ahead of the first task (workers start lazily, and loading one takes a second or two). */
  warm(): Promise<void>;
  close(): Promise<void>;
}

type Runner = <K extends TaskName>(
  name: K,
  input: TaskInput<K>,
  callbacks?: Callbacks,
) => Promise<TaskOutput<K>>;

/** The typed calls over a runner: options split into data (cloned) and functions (callbacks). */
function workPoolApi(run: Runner): Omit<WorkPool, 'close'> {
  return {
    async verifyPdf(bytes, options) {
      const { data, callbacks } = splitCallbacks(options);
      return run('verifyPdf', { bytes, options: data }, callbacks);
    },
    async signPdfFile(inPath, outPath, options) {
      const { data, callbacks } = splitCallbacks(options);
      return run('signPdfFile', { inPath, outPath, options: data }, callbacks);
    },
    readOfd: (bytes, limits) => run('readOfd', limits ? { bytes, limits } : { bytes }),
    readPdfPages: (bytes, password) => run('readPdfPages', password ? { bytes, password } : { bytes }),
    async fitPictureToSeal(png, size, opts) {
      const out = await run('fitPictureToSeal', { png, size, maxPixels: opts.maxPixels });
      // A Buffer arrives from a worker as a plain Uint8Array.
      return { ...out, png: Buffer.from(out.png.buffer, out.png.byteOffset, out.png.byteLength) };
    },
    warm: async () => void (await run('warm', undefined)),
  };
}

export interface WorkPoolOptions {
  /** Worker threads (WORKER_THREADS). */
  threads: number;
  /** Old-generation heap of each worker, in MB (WORKER_MEMORY_MB). */
  memoryMb: number;
  /** Deadlines by task, over TASK_DEADLINES_MS (tests shorten them). */
  deadlinesMs?: Partial<Record<TaskName, number>>;
  /** Tasks that may wait for a worker; more are refused as busy (default 16 per thread). */
  maxQueue?: number;
}

export function createWorkPool(options: WorkPoolOptions): WorkPool {
  const deadlines = { ...TASK_DEADLINES_MS, ...options.deadlinesMs };
  // Made on first use (most test apps never need a worker), then kept at full size: a worker terminated
  // at a deadline is replaced at once, so queued tasks never wait for a new run() to start one.
  let piscina: Piscina<TaskMessage, TaskResult> | null = null;
  const workers = () =>
    (piscina ??= new Piscina<TaskMessage, TaskResult>({
      filename: new URL('./worker-entry.mjs', import.meta.url).href,
      minThreads: options.threads,
      maxThreads: options.threads,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
      // Below the main thread, which answers every other request (Linux; ignored where unsupported).
      niceIncrement: 5,
    }));

  // Tasks given a signal wait outside piscina's bounded queue, so the bound is kept here.
  const maxInFlight = options.threads + (options.maxQueue ?? 16 * options.threads);
  let inFlight = 0;

  const run: Runner = async (name, input, callbacks = {}) => {
    if (inFlight >= maxInFlight) throw new AppError('work.busy', { details: { task: name } });
    inFlight++;
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let refusal: 'work.busy' | 'work.timeout' = 'work.busy';
    let deadline: NodeJS.Timeout | undefined;
    const queued = setTimeout(() => abort.abort(), QUEUE_WAIT_MS);
    serveCallbacks(port1, callbacks, () => {
      clearTimeout(queued);
      refusal = 'work.timeout';
      deadline = setTimeout(() => abort.abort(), deadlines[name]);
    });
    try {
      const result = await workers().run(
        { name, input, port: port2, callbacks: Object.keys(callbacks) },
        { transferList: [port2], signal: abort.signal },
      );
      if (!result.ok) throw fromWire(result.error);
      return result.value as TaskOutput<typeof name>;
    } catch (err) {
      throw poolError(err, abort.signal.aborted ? refusal : null, name, deadlines[name]);
    } finally {
      inFlight--;
      clearTimeout(queued);
      clearTimeout(deadline);
      port1.close();
    }
  };

  return { ...workPoolApi(run), close: async () => void (await piscina?.destroy()) };
}

/** Piscina's and the worker's own failures as catalogued errors; a task's errors pass through. */
function poolError(
  err: unknown,
  aborted: 'work.busy' | 'work.timeout' | null,
  task: TaskName,
  deadlineMs: number,
) {
  if (!(err instanceof Error)) return err;
  if (aborted && err.name === 'AbortError')
    return new AppError(aborted, {
      cause: err,
      details: aborted === 'work.timeout' ? { task, deadlineMs } : { task },
    });
  if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new AppError('work.outOfMemory', { cause: err, details: { task } });
  return err;
}

/**
 * The same tasks in this thread, for one-shot processes (the command line): no deadline but the
 * libraries' own, nothing to terminate.
 */
export function createInlineWorkPool(): WorkPool {
  const run: Runner = async (name, input, callbacks = {}) => {
    const { TASKS } = await import('./tasks');
    const task = TASKS[name] as (input: unknown, cb: Callbacks) => Promise<unknown>;
    return (await task(input, callbacks)) as TaskOutput<typeof name>;
  };
  return { ...workPoolApi(run), close: async () => {} };
}
