import { randomBytes } from 'node:crypto';
import type { KeyAlgorithm } from '../types';

/** What the software store persists for a key: the private key only ever in wrapped form. */
export interface KeyRecord {
  id: string;
  algorithm: KeyAlgorithm;
  label: string;
  /** DER SubjectPublicKeyInfo. */
  publicKeySpki: Uint8Array;
  /** AES-256-GCM(PKCS#8 DER) laid out as version(1) | iv(12) | tag(16) | ciphertext, AAD = id. */
  wrappedKey: Uint8Array;
  createdAt: Date;
}

/** Persistence for key records (the server backs it with its database). */
export interface KeyRecordStore {
  put(record: KeyRecord): Promise<void>;
  get(id: string): Promise<KeyRecord | undefined>;
}

/** In-memory record store for tests and tools. Copies on the way in and out so callers cannot alias. */
export class MemoryKeyRecordStore implements KeyRecordStore {
  private readonly records = new Map<string, KeyRecord>();

  async put(record: KeyRecord): Promise<void> {
    this.records.set(record.id, cloneRecord(record));
  }

  async get(id: string): Promise<KeyRecord | undefined> {
    const record = this.records.get(id);
    return record ? cloneRecord(record) : undefined;
  }

  /** Every stored record, for tests that inspect what would be persisted. */
  all(): KeyRecord[] {
    return [...this.records.values()].map(cloneRecord);
  }
}

function cloneRecord(r: KeyRecord): KeyRecord {
  return {
    ...r,
    publicKeySpki: new Uint8Array(r.publicKeySpki),
    wrappedKey: new Uint8Array(r.wrappedKey),
    createdAt: new Date(r.createdAt),
  };
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `key_` followed by 20 base32 characters (100 random bits). */
export function newKeyId(): string {
  const bytes = randomBytes(20);
  let out = 'key_';
  for (const b of bytes) out += BASE32[b & 31];
  return out;
}
