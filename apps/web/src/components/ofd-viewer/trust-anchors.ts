import type { OfdVerifyOptions } from '@openseal/ofd';

/**
 * The platform's trust anchors for checking OFD signers in the browser: the public PEM bundle
 * (`/pki/trust-anchors`: the platform root, TRUST_LIST and the roots of platforms an operator added) and
 * the issuing CA as an intermediate. Kept for a minute; a failed fetch answers no anchors, so every
 * signer then stays unconfirmed, never valid.
 */
export interface ViewerTrust extends OfdVerifyOptions {
  /** The anchors could not be fetched. */
  unavailable: boolean;
}

const KEEP_MS = 60_000;
let kept: { at: number; trust: Promise<ViewerTrust> } | null = null;

async function fetchBytes(url: string): Promise<Uint8Array | null> {
  const res = await fetch(url, { headers: { Accept: '*/*' } });
  return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
}

async function load(): Promise<ViewerTrust> {
  const { fromPem } = await import('@openseal/ofd');
  try {
    const [bundle, issuing] = await Promise.all([
      fetchBytes('/pki/trust-anchors'),
      fetchBytes('/pki/ca/issuing.cer').catch(() => null),
    ]);
    const trustAnchors = bundle ? fromPem(new TextDecoder().decode(bundle)) : [];
    return {
      trustAnchors,
      intermediates: issuing ? [issuing] : [],
      unavailable: trustAnchors.length === 0,
    };
  } catch {
    return { trustAnchors: [], intermediates: [], unavailable: true };
  }
}

export function loadViewerTrust(now = Date.now()): Promise<ViewerTrust> {
  if (!kept || now - kept.at > KEEP_MS) kept = { at: now, trust: load() };
  return kept.trust;
}
