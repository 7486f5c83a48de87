/**
 * Shared shapes of the trust core. Keys never leave their store: callers get a handle that signs.
 */

export type KeyAlgorithm = 'EC-P256' | 'RSA-2048';

/** A private key held by a key store. */
export interface KeyHandle {
  readonly id: string;
  readonly algorithm: KeyAlgorithm;
  /** DER SubjectPublicKeyInfo. */
  readonly publicKeySpki: Uint8Array;
  /**
   * Signs `data` with SHA-256: ECDSA answers a DER Ecdsa-Sig-Value, RSA a PKCS#1 v1.5 signature.
   * The store hashes (PKCS#11 tokens without CKM_ECDSA_SHA256 get the hash and CKM_ECDSA).
   */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

export interface KeyStore {
  readonly kind: 'software' | 'pkcs11';
  generate(algorithm: KeyAlgorithm, label: string): Promise<KeyHandle>;
  load(id: string): Promise<KeyHandle>;
}

/** A signer for CMS: its certificate (DER), the chain up to (not necessarily including) the root, and its key. */
export interface CmsSigner {
  certificate: Uint8Array;
  chain?: Uint8Array[];
  key: KeyHandle;
}

/** Certificates a verifier trusts (anchors) and may use to build paths (intermediates). */
export interface TrustStore {
  anchors: Uint8Array[];
  intermediates?: Uint8Array[];
}
