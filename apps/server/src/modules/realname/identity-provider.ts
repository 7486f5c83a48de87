import { createHmac } from 'node:crypto';

/**
 * Identity verification: the platform asks a verification service whether a person (name, resident ID,
 * mobile) or an organisation (name, credit code, legal representative) is who they claim to be. Answers
 * arrive asynchronously, as real services call back: `verify*` only submits, `onResult` receives the
 * outcome for the request's `ref` (the application id).
 */
export interface PersonCheck {
  ref: string;
  name: string;
  idNumber: string;
  mobile: string;
}

export interface OrganizationCheck {
  ref: string;
  orgName: string;
  uscc: string;
  legalName: string;
  legalIdNumber: string;
}

export interface VerificationResult {
  ref: string;
  ok: boolean;
  reason?: string;
}

/** What the business registry holds for a credit code. */
export interface RegistryRecord {
  orgName: string;
  legalName: string;
}

export interface IdentityVerifier {
  readonly name: string;
  /** True only for the sandbox: the API then says `sandbox: true` so the UI labels it. */
  readonly isSandbox: boolean;
  verifyPerson(check: PersonCheck): Promise<void>;
  verifyOrganization(check: OrganizationCheck): Promise<void>;
  /** Pays `amountCents` into the account (bank micro-payment path); the applicant reads it back. */
  payMicroAmount(input: {
    ref: string;
    account: string;
    orgName: string;
    amountCents: number;
  }): Promise<void>;
  /** The registry's current data for a credit code; `known` is what the platform holds now. */
  registryRecord(uscc: string, known: RegistryRecord): Promise<RegistryRecord | null>;
  onResult(listener: (result: VerificationResult) => Promise<void> | void): void;
  close(): Promise<void>;
}

function resultHub() {
  const listeners: Array<(r: VerificationResult) => Promise<void> | void> = [];
  return {
    onResult(listener: (r: VerificationResult) => Promise<void> | void) {
      listeners.push(listener);
    },
    async report(r: VerificationResult) {
      for (const l of listeners) await l(r);
    },
  };
}

/**
 * Resident ID numbers the sandbox refuses: sequence digits (positions 15-17) `999`. Any valid number
 * with another sequence passes, so a test or a demo picks its outcome by the number it types.
 */
export function sandboxDeniesId(idNumber: string): boolean {
  return idNumber.slice(14, 17) === '999';
}

/**
 * Credit codes whose registry data the sandbox reports as changed: region digits (positions 3-8)
 * `999999`. The sandbox registry then answers the organisation name with `（变更后）` appended and the
 * legal representative `新法人`; for other codes it answers what the platform already holds.
 */
export function sandboxRegistryChanged(uscc: string): boolean {
  return uscc.slice(2, 8) === '999999';
}

export const SANDBOX_CHANGED_SUFFIX = '（变更后）';
export const SANDBOX_CHANGED_LEGAL = '新法人';

/**
 * Sandbox verifier: answers after `delayMs` without leaving the machine. It fails persons and legal
 * representatives whose ID number is on the deny list (`sandboxDeniesId`); bank payments always
 * "arrive"; the registry is described at `sandboxRegistryChanged`.
 */
export function createSandboxIdentityVerifier(options: { delayMs: number }): IdentityVerifier {
  const hub = resultHub();
  const timers = new Set<NodeJS.Timeout>();
  const later = (result: VerificationResult) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void hub.report(result);
    }, options.delayMs);
    timers.add(timer);
  };
  return {
    name: 'sandbox',
    isSandbox: true,
    async verifyPerson(check) {
      later(
        sandboxDeniesId(check.idNumber)
          ? { ref: check.ref, ok: false, reason: 'realName.identityMismatch' }
          : { ref: check.ref, ok: true },
      );
    },
    async verifyOrganization(check) {
      later(
        sandboxDeniesId(check.legalIdNumber)
          ? { ref: check.ref, ok: false, reason: 'realName.legalMismatch' }
          : { ref: check.ref, ok: true },
      );
    },
    async payMicroAmount() {},
    async registryRecord(uscc, known) {
      if (!sandboxRegistryChanged(uscc)) return known;
      return {
        orgName: known.orgName.endsWith(SANDBOX_CHANGED_SUFFIX)
          ? known.orgName
          : known.orgName + SANDBOX_CHANGED_SUFFIX,
        legalName: SANDBOX_CHANGED_LEGAL,
      };
    },
    onResult: hub.onResult,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/**
 * Production-shaped adapter for an HTTP verification service: JSON requests signed with HMAC-SHA256
 * (`x-signature`) to `${url}/person`, `/organization`, `/micro-payment` and `/registry`. Verification
 * outcomes arrive later through the service's callback, which the vendor's receipt endpoint hands to
 * `report`; a refused request is reported as a failure at once.
 */
export function createHttpIdentityVerifier(options: {
  url: string;
  key: string;
  fetchImpl?: typeof fetch;
  log?: { warn(obj: object, msg: string): void };
}): IdentityVerifier & { report(r: VerificationResult): Promise<void> } {
  const hub = resultHub();
  const doFetch = options.fetchImpl ?? fetch;
  async function post(path: string, payload: object): Promise<Response> {
    const body = JSON.stringify(payload);
    const signature = createHmac('sha256', options.key).update(body).digest('hex');
    const res = await doFetch(`${options.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`verification service answered ${res.status}`);
    return res;
  }
  async function submit(ref: string, path: string, payload: object) {
    try {
      await post(path, payload);
    } catch (e) {
      // The transport's own words go to the log; the applicant reads a catalogued reason.
      options.log?.warn({ err: e, ref }, 'the identity verification service refused a request');
      await hub.report({ ref, ok: false, reason: 'realName.verifierUnavailable' });
    }
  }
  return {
    name: 'http',
    isSandbox: false,
    verifyPerson: (check) => submit(check.ref, '/person', check),
    verifyOrganization: (check) => submit(check.ref, '/organization', check),
    async payMicroAmount(input) {
      await post('/micro-payment', input);
    },
    async registryRecord(uscc) {
      const res = await post('/registry', { uscc });
      const data = (await res.json()) as { orgName?: unknown; legalName?: unknown } | null;
      if (!data || typeof data.orgName !== 'string' || typeof data.legalName !== 'string') return null;
      return { orgName: data.orgName, legalName: data.legalName };
    },
    onResult: hub.onResult,
    report: hub.report,
    async close() {},
  };
}
