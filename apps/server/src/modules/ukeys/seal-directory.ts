import type { Db } from '@openseal/db';

/** A seal as the UKey module needs to know it. */
export interface SealRef {
  sealCode: string;
  name: string;
  /** Whether the seal may go on a key now (in force, not frozen, disabled or being changed). */
  usable: boolean;
}

/**
 * How the UKey module reaches seals: the seals module owns them (table `seals`, keyed by seal code), and
 * this module keeps only seal codes. app.ts wires the seals service here; tests give a small directory
 * of their own.
 */
export interface SealDirectory {
  /** The organisation's seal with this code, or undefined (another organisation's seal is undefined too). */
  findSeal(tx: Db, organizationId: string, sealCode: string): Promise<SealRef | undefined>;
  /** The seal impression (PNG) the maker writes to the key next to the certificate; null when there is none. */
  sealImage(tx: Db, organizationId: string, sealCode: string): Promise<Uint8Array | null>;
}

/** Until the seals service is wired in, no seal is known, so putting seals on a key is refused. */
export const UNWIRED_SEAL_DIRECTORY: SealDirectory = {
  findSeal: async () => undefined,
  sealImage: async () => null,
};
