import { createHmac } from 'node:crypto';

/**
 * Text-message delivery. The platform talks to a gateway through this interface; delivery is
 * asynchronous: `send` only queues, and the provider reports the outcome later through `onReport`,
 * as real gateways do with delivery receipts.
 */
export interface SmsMessage {
  id: string;
  mobile: string;
  scene: string;
  body: string;
}

export interface DeliveryReport {
  id: string;
  status: 'delivered' | 'failed';
  error?: string;
}

export interface SmsProvider {
  readonly name: string;
  /** True only for the sandbox: the message text may then be kept and shown in the dev outbox. */
  readonly isSandbox: boolean;
  send(message: SmsMessage): Promise<void>;
  onReport(listener: (report: DeliveryReport) => Promise<void> | void): void;
  close(): Promise<void>;
}

/** The delivery-report listeners every provider keeps. */
function reportHub() {
  const listeners: Array<(r: DeliveryReport) => Promise<void> | void> = [];
  return {
    onReport(listener: (r: DeliveryReport) => Promise<void> | void) {
      listeners.push(listener);
    },
    async report(r: DeliveryReport) {
      for (const l of listeners) await l(r);
    },
  };
}

/**
 * Sandbox provider: behaves like a gateway without leaving the machine. Delivery reports arrive after a
 * delay; numbers in the sandbox deny range (199 0000 xxxx) fail as unreachable; every message is kept so
 * the demo and tests can read it at GET /v1/dev/sms-outbox.
 */
export function createSandboxSmsProvider(options: { delayMs: number }): SmsProvider {
  const hub = reportHub();
  const timers = new Set<NodeJS.Timeout>();
  return {
    name: 'sandbox',
    isSandbox: true,
    async send(message) {
      const fails = /^1990000\d{4}$/.test(message.mobile);
      const timer = setTimeout(() => {
        timers.delete(timer);
        void hub.report(
          fails
            ? { id: message.id, status: 'failed', error: 'sandbox: number unreachable' }
            : { id: message.id, status: 'delivered' },
        );
      }, options.delayMs);
      timers.add(timer);
    },
    onReport: hub.onReport,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/**
 * Production-shaped adapter for an HTTP SMS gateway: POSTs a JSON request signed with HMAC-SHA256
 * (`x-signature`) and treats the gateway's later delivery receipt (passed to `report`) as the outcome;
 * a refused or unreachable request is reported failed at once. The receipt endpoint of a particular
 * vendor is wired where that vendor is chosen.
 */
export function createHttpSmsProvider(options: {
  url: string;
  key: string;
  fetchImpl?: typeof fetch;
}): SmsProvider & { report(r: DeliveryReport): Promise<void> } {
  const hub = reportHub();
  const doFetch = options.fetchImpl ?? fetch;
  return {
    name: 'http',
    isSandbox: false,
    async send(message) {
      const body = JSON.stringify({
        id: message.id,
        mobile: message.mobile,
        template: message.scene,
        text: message.body,
      });
      const signature = createHmac('sha256', options.key).update(body).digest('hex');
      let error: string | null = null;
      try {
        const res = await doFetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': signature },
          body,
          signal: AbortSignal.timeout(5_000),
        });
        if (!res.ok) error = `gateway answered ${res.status}`;
      } catch (e) {
        error = `gateway unreachable: ${e instanceof Error ? e.message : String(e)}`;
      }
      if (error) {
        await hub.report({ id: message.id, status: 'failed', error });
        throw new Error(error);
      }
    },
    onReport: hub.onReport,
    report: hub.report,
    async close() {},
  };
}
