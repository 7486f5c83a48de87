/**
 * Certificates parsed once per thread: trust anchors, intermediates and the certificates documents
 * carry (a platform's own chain comes with every file it signed) are looked up by the SHA-256 of their
 * DER in a bounded LRU, with their public keys and the checks of which key signed which certificate.
 * Workers live long, so a module-level cache serves every verification a thread runs. Parsed values
 * are never mutated; each keeps a copy of its bytes, not a view into a caller's (possibly large) buffer.
 */
import { createHash } from 'node:crypto';
import { parseCertificate, verifyIssuedBy, type CertInfo } from './cert';
import { LruCache } from '../util/lru';
import type { SignatureCheck } from './algorithms';

/** Distinct certificates kept; one entry is a few kilobytes. */
export const CERT_CACHE_SIZE = 512;

const parsed = new LruCache<string, CertInfo>(CERT_CACHE_SIZE);
/** Issuer → child → outcome of checking the child's signature with the issuer's key. */
const links = new WeakMap<CertInfo, WeakMap<CertInfo, SignatureCheck>>();

/** parseCertificate through the cache; throws DerError (not cached) when the bytes are no certificate. */
export function parseCertificateCached(der: Uint8Array): CertInfo {
  const key = createHash('sha256').update(der).digest('base64');
  const hit = parsed.get(key);
  if (hit) return hit;
  const info = parseCertificate(new Uint8Array(der));
  parsed.set(key, info);
  return info;
}

export function tryParseCertificateCached(der: Uint8Array): CertInfo | undefined {
  try {
    return parseCertificateCached(der);
  } catch {
    return undefined;
  }
}

/** verifyIssuedBy, remembered for cached certificates (the same bytes always give the same answer). */
export function verifyIssuedByCached(child: CertInfo, issuer: CertInfo): SignatureCheck {
  let byChild = links.get(issuer);
  const known = byChild?.get(child);
  if (known) return known;
  const check = verifyIssuedBy(child, issuer);
  if (!byChild) links.set(issuer, (byChild = new WeakMap()));
  byChild.set(child, check);
  return check;
}

/** How many certificates are cached (tests). */
export function certCacheSize(): number {
  return parsed.size;
}
