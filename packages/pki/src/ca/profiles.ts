import { OID } from '../util/oids';

export type CertificateProfile =
  'root-ca' | 'issuing-ca' | 'ocsp-signer' | 'tsa' | 'org-seal' | 'person-seal' | 'person';

/** RFC 5280 KeyUsage bit positions. */
export const KEY_USAGE_BIT = {
  digitalSignature: 0,
  nonRepudiation: 1,
  keyEncipherment: 2,
  dataEncipherment: 3,
  keyAgreement: 4,
  keyCertSign: 5,
  cRLSign: 6,
} as const;

export type KeyUsageName = keyof typeof KEY_USAGE_BIT;

/**
 * OpenSeal's object-identifier arc: a UUID-derived OID (ITU-T X.667, arc 2.25), unique without
 * registration. Policies live under `.1`, the timestamp unit's policy under `.2`.
 */
export const OPENSEAL_OID_ARC = '2.25.234770949406353382624719008145168115034';
export const POLICY_ARC = `${OPENSEAL_OID_ARC}.1`;
export const TSA_POLICY_OID = `${OPENSEAL_OID_ARC}.2.1`;

export interface ProfileRules {
  validityYears: number;
  ca: boolean;
  /** Only for CA profiles: absent means unlimited. */
  pathLength?: number;
  keyUsage: KeyUsageName[];
  extendedKeyUsage?: { purposes: string[]; critical: boolean };
  /** Policy OIDs asserted; none for the root, which anchors rather than asserts. */
  policies: string[];
  ocspNoCheck: boolean;
  selfSigned: boolean;
}

export const PROFILES: Record<CertificateProfile, ProfileRules> = {
  'root-ca': {
    validityYears: 20,
    ca: true,
    keyUsage: ['keyCertSign', 'cRLSign'],
    policies: [],
    ocspNoCheck: false,
    selfSigned: true,
  },
  'issuing-ca': {
    validityYears: 10,
    ca: true,
    pathLength: 0,
    keyUsage: ['keyCertSign', 'cRLSign'],
    policies: [OID.anyPolicy],
    ocspNoCheck: false,
    selfSigned: false,
  },
  'ocsp-signer': {
    validityYears: 3,
    ca: false,
    keyUsage: ['digitalSignature'],
    extendedKeyUsage: { purposes: [OID.kpOcspSigning], critical: false },
    policies: [`${POLICY_ARC}.5`],
    ocspNoCheck: true,
    selfSigned: false,
  },
  tsa: {
    validityYears: 3,
    ca: false,
    keyUsage: ['digitalSignature'],
    // RFC 3161 §2.3: exactly one EKU, id-kp-timeStamping, marked critical.
    extendedKeyUsage: { purposes: [OID.kpTimeStamping], critical: true },
    policies: [`${POLICY_ARC}.4`],
    ocspNoCheck: false,
    selfSigned: false,
  },
  'org-seal': {
    validityYears: 1,
    ca: false,
    keyUsage: ['digitalSignature', 'nonRepudiation'],
    policies: [`${POLICY_ARC}.1`],
    ocspNoCheck: false,
    selfSigned: false,
  },
  'person-seal': {
    validityYears: 1,
    ca: false,
    keyUsage: ['digitalSignature', 'nonRepudiation'],
    policies: [`${POLICY_ARC}.2`],
    ocspNoCheck: false,
    selfSigned: false,
  },
  person: {
    validityYears: 1,
    ca: false,
    keyUsage: ['digitalSignature', 'nonRepudiation'],
    policies: [`${POLICY_ARC}.3`],
    ocspNoCheck: false,
    selfSigned: false,
  },
};

export function isCertificateProfile(value: string): value is CertificateProfile {
  return Object.hasOwn(PROFILES, value);
}
