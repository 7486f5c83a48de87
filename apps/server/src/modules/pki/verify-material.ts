/**
 * What `openseal verify` needs of the platform, kept in the data directory so the command checks a file
 * without opening the database: the trust anchors (the platform root, TRUST_LIST, the enabled
 * operator-added anchors), the issuing CA as an intermediate, and the issuing CA's revocation list.
 *
 * Every process that runs the PKI writes it as it starts (the server, and `openseal sign` or `seed`), and
 * a server rewrites it every minute. A certificate status change or an anchor change made here removes the
 * file before it touches the database, so a verifier never trusts material older than such a change; until
 * the file is back, `openseal verify` opens the database (or asks the running server). A change made
 * through another instance of a shared PostgreSQL database reaches this file with the next rewrite. The
 * file is ignored once its revocation list has expired (a day without a rewrite).
 *
 * Only Node built-ins here: the command reads this without loading the PKI service.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VerifyMaterial {
  anchors: Uint8Array[];
  intermediates: Uint8Array[];
  /** Revocation lists of the platform's CAs, signed when the file was written. */
  crls: Uint8Array[];
  writtenAt: Date;
  /** The revocation lists' next update: past it, the file is not used. */
  validUntil: Date;
}

interface Stored {
  version: 1;
  writtenAt: string;
  validUntil: string;
  anchors: string[];
  intermediates: string[];
  crls: string[];
}

export function verifyMaterialPath(dataDir: string): string {
  return join(dataDir, 'pki', 'verify-material.json');
}

/** The material of this data directory, or null when it is missing, unreadable or expired. */
export function readVerifyMaterial(dataDir: string, now = new Date()): VerifyMaterial | null {
  let stored: Stored;
  try {
    stored = JSON.parse(readFileSync(verifyMaterialPath(dataDir), 'utf8')) as Stored;
  } catch {
    return null;
  }
  if (stored?.version !== 1 || !Array.isArray(stored.anchors) || stored.anchors.length === 0) return null;
  const validUntil = new Date(stored.validUntil);
  if (!(validUntil > now)) return null;
  const der = (list: unknown) =>
    Array.isArray(list) ? list.map((b64) => new Uint8Array(Buffer.from(String(b64), 'base64'))) : [];
  return {
    anchors: der(stored.anchors),
    intermediates: der(stored.intermediates),
    crls: der(stored.crls),
    writtenAt: new Date(stored.writtenAt),
    validUntil,
  };
}

/** Writes the material whole (a reader sees the old file or the new one, never part of one). */
export function writeVerifyMaterial(dataDir: string, material: VerifyMaterial): void {
  const file = verifyMaterialPath(dataDir);
  mkdirSync(join(dataDir, 'pki'), { recursive: true });
  const b64 = (list: Uint8Array[]) => list.map((d) => Buffer.from(d).toString('base64'));
  const stored: Stored = {
    version: 1,
    writtenAt: material.writtenAt.toISOString(),
    validUntil: material.validUntil.toISOString(),
    anchors: b64(material.anchors),
    intermediates: b64(material.intermediates),
    crls: b64(material.crls),
  };
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(stored)}\n`);
  renameSync(tmp, file);
}

/** Before a change the file would not show: verifiers fall back to the database until it is rewritten. */
export function dropVerifyMaterial(dataDir: string): void {
  rmSync(verifyMaterialPath(dataDir), { force: true });
}
