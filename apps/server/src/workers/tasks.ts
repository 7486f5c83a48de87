/**
 * The work the pool runs off the main thread: everything whose cost a request's bytes decide (parsing,
 * verification, image decoding, the CPU part of signing). Each task takes structured-cloneable input
 * and, for functions of its options, callbacks that run on the main thread (wire.ts). The same tasks
 * run in process through the inline pool (the command line).
 */
import type { MessagePort } from 'node:worker_threads';
import type { OfdLimits } from '@openseal/ofd';
import {
  bufferSource,
  signPdfFile,
  verifyPdf,
  type PdfSignOptions,
  type VerifyPdfOptions,
} from '@openseal/pdf';
import { readPdfPages } from '../modules/signing/pdf-pages';
import { remoteCallbacks, toWire, type Callbacks, type WireError } from './wire';

// The OFD reader and the image engine load on first use, so a one-shot command that signs a PDF loads
// neither (the image engine's font library alone takes a quarter of a second). A worker loads every
// library when it starts (loadTaskLibraries), before it takes a task: a deadline measures the work.
const ofd = () => import('@openseal/ofd');
const sealImage = () => import('@openseal/seal-image/node');

/** Loads what the tasks use on first use; the pool's workers call it as they start. */
export async function loadTaskLibraries(): Promise<void> {
  await Promise.all([ofd(), sealImage()]);
}

export const TASKS = {
  /** packages/pdf `verifyPdf` over bytes; `checkRevocation` is a callback (the platform's revocation state). */
  verifyPdf: async (input: { bytes: Uint8Array; options: Partial<VerifyPdfOptions> }, cb: Callbacks) => {
    return verifyPdf(bufferSource(input.bytes), { ...input.options, ...cb } as VerifyPdfOptions);
  },

  /**
   * packages/pdf `signPdfFile`: reading (a small file whole, a large one streamed), the seal image, the
   * incremental update, the hashes and the output all happen here; `sign` is a callback, so the CMS is built where the key is (see pdf-signing.ts).
   */
  signPdfFile: async (
    input: { inPath: string; outPath: string; options: Partial<PdfSignOptions> },
    cb: Callbacks,
  ) => {
    return signPdfFile(input.inPath, input.outPath, { ...input.options, ...cb } as PdfSignOptions);
  },

  /** The whole structure of an OFD package, as a viewer reads it (the upload check). */
  readOfd: async (input: { bytes: Uint8Array; limits?: OfdLimits }) => {
    const doc = (await ofd()).readOfd(input.bytes, input.limits);
    return { pages: doc.pages.length };
  },

  /** Page sizes of a PDF to sign, or its catalogued refusal. */
  readPdfPages: async (input: { bytes: Uint8Array; password?: string }) => {
    return readPdfPages(input.bytes, input.password);
  },

  /** An uploaded seal picture redrawn at the seal's own size (seal-image `fitPictureToSeal`). */
  fitPictureToSeal: async (input: {
    png: Uint8Array;
    size: { widthMm: number; heightMm: number };
    maxPixels: number;
  }) => {
    const { fitPictureToSeal } = await sealImage();
    return fitPictureToSeal(input.png, input.size, { maxPixels: input.maxPixels });
  },

  /** Nothing: starts a worker (and loads the task modules) ahead of the first real task. */
  warm: async () => true,
};

export type TaskName = keyof typeof TASKS;
export type TaskInput<K extends TaskName> = Parameters<(typeof TASKS)[K]>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<(typeof TASKS)[K]>>;

export interface TaskMessage {
  name: TaskName;
  input: unknown;
  /** The task's channel to the main thread: its start, and its callbacks. */
  port: MessagePort;
  callbacks: string[];
}

export type TaskResult = { ok: true; value: unknown } | { ok: false; error: WireError };

/** One task in a worker: says it started (its deadline runs from here), runs, and answers errors as data. */
export async function runTask(msg: TaskMessage): Promise<TaskResult> {
  msg.port.postMessage({ type: 'started' });
  try {
    const task = TASKS[msg.name] as (input: unknown, cb: Callbacks) => Promise<unknown>;
    return { ok: true, value: await task(msg.input, remoteCallbacks(msg.port, msg.callbacks)) };
  } catch (err) {
    return { ok: false, error: toWire(err) };
  } finally {
    msg.port.close();
  }
}
