import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A key of the platform: public half in clear, private half wrapped under the key-encryption key (software store) or held by a token (pkcs11). */
export interface PkiKeysTable {
  id: string;
  algorithm: 'EC-P256' | 'RSA-2048';
  label: string;
  store: 'software' | 'pkcs11';
  public_key: Uint8Array;
  wrapped_key: Uint8Array | null;
  created_at: Timestamp;
}

/** The platform's own authorities: root and issuing CA, OCSP responder, timestamp unit, evidence-log key. */
export interface PkiAuthoritiesTable {
  name: 'root' | 'issuing' | 'ocsp' | 'tsa' | 'evidence';
  key_id: string;
  certificate: Uint8Array | null;
  serial: string | null;
  crl_number: Generated<number>;
  created_at: Timestamp;
}

export type CertificateStatus = 'good' | 'hold' | 'revoked';

/** Every certificate the issuing CA has issued, with its revocation state. */
export interface CertificatesTable {
  serial: string;
  issuer: 'root' | 'issuing';
  profile: string;
  subject: string;
  /** The subject as issued (JSON), so a renewal names the holder exactly as before. */
  subject_spec: string;
  common_name: string;
  der: Uint8Array;
  /** The platform-held key; null when the key was generated on a UKey and never left it (migration 0009). */
  key_id: string | null;
  not_before: Timestamp;
  not_after: Timestamp;
  status: Generated<CertificateStatus>;
  revoked_at: NullableTimestamp;
  revocation_reason: string | null;
  owner_type: 'organization' | 'person' | 'platform';
  owner_id: string;
  seal_code: string | null;
  renewed_from: string | null;
  created_at: Timestamp;
}

/** Tables of the platform PKI (migration 0002-pki). */
export interface PkiTables {
  pki_keys: PkiKeysTable;
  pki_authorities: PkiAuthoritiesTable;
  certificates: CertificatesTable;
}
