import { constants, createHash, createPublicKey, verify as verifyWithNode } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { KeyAlgorithm, KeyHandle } from '../types';
import { OID } from './oids';

export type HashName = 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';

const HASH_BY_OID: Record<string, HashName> = {
  [OID.sha1]: 'sha1',
  [OID.sha224]: 'sha224',
  [OID.sha256]: 'sha256',
  [OID.sha384]: 'sha384',
  [OID.sha512]: 'sha512',
};

/** Signature algorithms we accept from third parties, with the digest node:crypto must use. */
const SIGNATURE_HASH: Record<string, HashName | null> = {
  [OID.sha1WithRsa]: 'sha1',
  [OID.sha224WithRsa]: 'sha224',
  [OID.sha256WithRsa]: 'sha256',
  [OID.sha384WithRsa]: 'sha384',
  [OID.sha512WithRsa]: 'sha512',
  [OID.ecdsaWithSha1]: 'sha1',
  [OID.ecdsaWithSha224]: 'sha224',
  [OID.ecdsaWithSha256]: 'sha256',
  [OID.ecdsaWithSha384]: 'sha384',
  [OID.ecdsaWithSha512]: 'sha512',
  [OID.ed25519]: null,
};

export function hashNameForOid(oid: string): HashName | undefined {
  return HASH_BY_OID[oid];
}

export function hashOidFor(name: HashName): string {
  const entry = Object.entries(HASH_BY_OID).find(([, n]) => n === name);
  if (!entry) throw new TypeError(`unknown hash ${name}`);
  return entry[0];
}

export function digest(name: HashName, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash(name).update(data).digest());
}

/** The AlgorithmIdentifier our keys sign with (always SHA-256); RSA carries an explicit NULL per RFC 4055. */
export function signatureAlgorithmFor(algorithm: KeyAlgorithm): pkijs.AlgorithmIdentifier {
  return algorithm === 'EC-P256'
    ? new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 })
    : new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRsa, algorithmParams: new asn1js.Null() });
}

/** Signs DER `tbs` with the handle, ready to drop into a signatureValue field. */
export async function signToBitString(tbs: Uint8Array, key: KeyHandle): Promise<asn1js.BitString> {
  const signature = await key.sign(tbs);
  return new asn1js.BitString({ valueHex: signature });
}

/**
 * Checks a signature over `tbs` with the key in `spki`. Never throws: an unsupported algorithm,
 * malformed key or bad signature all answer false, which is what a verifier wants to branch on.
 */
export function verifySignature(
  tbs: Uint8Array,
  algorithm: pkijs.AlgorithmIdentifier,
  signature: Uint8Array,
  spki: Uint8Array,
): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
    if (algorithm.algorithmId === OID.rsassaPss) {
      const params = new pkijs.RSASSAPSSParams({ schema: algorithm.algorithmParams });
      const hash = hashNameForOid(params.hashAlgorithm.algorithmId);
      if (!hash) return false;
      return verifyWithNode(
        hash,
        tbs,
        {
          key,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: params.saltLength,
        },
        signature,
      );
    }
    const hash = SIGNATURE_HASH[algorithm.algorithmId];
    if (hash === undefined) return false;
    return verifyWithNode(hash, tbs, key, signature);
  } catch {
    return false;
  }
}
