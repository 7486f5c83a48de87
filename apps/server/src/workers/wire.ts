/**
 * What crosses between the main thread and a worker besides plain data: errors, which lose their class
 * in a structured clone (so an AppError would arrive as a bare Error and answer 500), and calls back to
 * the main thread for what a worker cannot hold (key handles, the database).
 */
import { AppError, type ErrorKey } from '@openseal/core';
// The error class alone: the pool's callers need not load the OFD reader.
import { OfdError, type OfdErrorReason } from '@openseal/ofd/errors';
import { PdfError, type PdfErrorCode } from '@openseal/pdf';
import { SealImageError, type SealImageErrorCode } from '@openseal/seal-image';
import type { MessagePort } from 'node:worker_threads';

export type WireError =
  | { kind: 'app'; key: ErrorKey; params?: Record<string, string | number>; details?: unknown }
  | { kind: 'pdf'; code: PdfErrorCode; message: string }
  | { kind: 'ofd'; reason: OfdErrorReason; message: string }
  | { kind: 'sealImage'; code: SealImageErrorCode; message: string; details: Record<string, unknown> }
  | { kind: 'other'; name: string; message: string; stack?: string };

export function toWire(err: unknown): WireError {
  if (err instanceof AppError) {
    const out: WireError = { kind: 'app', key: err.key };
    if (err.params) out.params = err.params;
    if (err.details !== undefined) out.details = err.details;
    return out;
  }
  if (err instanceof PdfError) return { kind: 'pdf', code: err.code, message: err.message };
  if (err instanceof OfdError) return { kind: 'ofd', reason: err.reason, message: err.message };
  if (err instanceof SealImageError)
    return { kind: 'sealImage', code: err.code, message: err.message, details: err.details };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'other', name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
}

export function fromWire(w: WireError): Error {
  switch (w.kind) {
    case 'app':
      return new AppError(w.key, {
        ...(w.params ? { params: w.params } : {}),
        ...(w.details !== undefined ? { details: w.details } : {}),
      });
    case 'pdf':
      return new PdfError(w.code, w.message);
    case 'ofd':
      return new OfdError(w.reason, w.message);
    case 'sealImage':
      return new SealImageError(w.code, w.message, w.details);
    case 'other': {
      const e = new Error(w.message);
      e.name = w.name;
      if (w.stack) e.stack = w.stack;
      return e;
    }
    default: {
      const never: never = w;
      return new Error(`unknown wire error ${JSON.stringify(never)}`);
    }
  }
}

/** Messages on a task's port. */
export type PortMessage =
  | { type: 'started' }
  | { type: 'call'; id: number; fn: string; args: unknown[] }
  | { type: 'return'; id: number; value: unknown }
  | { type: 'throw'; id: number; error: WireError };

/** Functions of an options object stay behind; the rest is data that crosses by structured clone. */
export type Callbacks = Record<string, (...args: never[]) => Promise<unknown>>;

/** Splits an options object into its data and its (top-level) functions. */
export function splitCallbacks<T extends object>(options: T): { data: Partial<T>; callbacks: Callbacks } {
  const data: Record<string, unknown> = {};
  const callbacks: Callbacks = {};
  for (const [k, v] of Object.entries(options)) {
    if (typeof v === 'function') callbacks[k] = v as Callbacks[string];
    else if (v !== undefined) data[k] = v;
  }
  return { data: data as Partial<T>, callbacks };
}

/** Main side: answers a worker's calls to `callbacks` on `port`, and reports when its task starts. */
export function serveCallbacks(port: MessagePort, callbacks: Callbacks, onStarted: () => void): void {
  port.on('message', (m: PortMessage) => {
    if (m.type === 'started') return onStarted();
    if (m.type !== 'call') return;
    const fn = callbacks[m.fn];
    Promise.resolve()
      .then(() => {
        if (!fn) throw new Error(`no callback ${m.fn}`);
        return (fn as (...args: unknown[]) => Promise<unknown>)(...m.args);
      })
      .then(
        (value) => port.postMessage({ type: 'return', id: m.id, value } satisfies PortMessage),
        (err: unknown) =>
          port.postMessage({ type: 'throw', id: m.id, error: toWire(err) } satisfies PortMessage),
      )
      // The task may have ended (and the port closed) while the callback ran.
      .catch(() => {});
  });
}

/** Worker side: a function per callback name, each a call to the main thread over `port`. */
export function remoteCallbacks(port: MessagePort, names: readonly string[]): Callbacks {
  let next = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  port.on('message', (m: PortMessage) => {
    if (m.type !== 'return' && m.type !== 'throw') return;
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.type === 'return') p?.resolve(m.value);
    else p?.reject(fromWire(m.error));
  });
  const out: Callbacks = {};
  for (const fn of names)
    out[fn] = (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        port.postMessage({ type: 'call', id, fn, args } satisfies PortMessage);
      });
  return out;
}
