/**
 * RFC 3161 TimeStampToken verification: a SignedData over TSTInfo, whose messageImprint must be the hash of
 * the time-stamped data (a signature value for a signature time-stamp, the byte ranges for a PDF document
 * time-stamp).
 */
import type { TrustStore } from '../types';
import {
  bytesEqual,
  decodeInteger,
  decodeTime,
  expectTag,
  readChildren,
  readOid,
  readTlv,
  toHex,
  type Tlv,
} from './der';
import { buildChain, makeCertificatePool, type ChainFailure, type ChainStatus } from './chain';
import { parseCms } from './cms-parse';
import { OID, digest, hashByOid, normalizeHashName, type HashName } from './oids';
import type { VerifyFinding } from '@openseal/core';
import { chainFindings } from './findings';
import { checkSignerInfo, type IntegrityFailure } from './signer-info';

export interface TstInfo {
  policy: string;
  hashAlgorithmOid: string;
  hashAlgorithm?: HashName;
  hashedMessage: Uint8Array;
  serialHex: string;
  genTime: Date;
  nonce?: Uint8Array;
}

export function parseTstInfo(der: Uint8Array): TstInfo {
  const fields = readChildren(expectTag(readTlv(der), 0x30, 'TSTInfo'));
  const [algId, hashed] = readChildren(expectTag(fields[2], 0x30, 'messageImprint'));
  const hashAlgorithmOid = readOid(readChildren(expectTag(algId, 0x30, 'hashAlgorithm'))[0]);
  const nonce = fields.slice(5).find((f) => f.tag === 0x02);
  return {
    policy: readOid(fields[1], 'policy'),
    hashAlgorithmOid,
    hashAlgorithm: hashByOid(hashAlgorithmOid),
    hashedMessage: expectTag(hashed, 0x04, 'hashedMessage').value,
    serialHex: decodeInteger(expectTag(fields[3], 0x02, 'serialNumber').value).toString(16),
    genTime: decodeTime(expectTag(fields[4], 0x18, 'genTime') as Tlv),
    nonce: nonce?.value,
  };
}

export interface TimeStampVerification {
  /** genTime; the epoch when the token could not be read. */
  time: Date;
  /** The token's signature, its imprint over the data and the TSA certificate's purpose all check out. */
  valid: boolean;
  tsa?: string;
  reason?: string;
  /** Why the token is not valid: as for a signature, or a TSA certificate unfit for time-stamping. */
  failure?: IntegrityFailure | 'constraints';
  chain: ChainStatus;
  chainFailure?: ChainFailure;
  /** Why the TSA is not confirmed, as catalogued reasons (empty when its chain is trusted). */
  chainFindings: VerifyFinding[];
  chainReason?: string;
  chainSubjects: string[];
  policy?: string;
  serialHex?: string;
  tsaCertificate?: Uint8Array;
}

export interface VerifyTimeStampOptions {
  extraCertificates?: Uint8Array[];
}

/**
 * Verifies a TimeStampToken (DER ContentInfo) over `data` (the time-stamped bytes) or over a digest of
 * them. Never throws.
 */
export async function verifyTimeStampToken(
  token: Uint8Array,
  data: Uint8Array | { digest: Uint8Array; algorithm: string },
  trust: TrustStore,
  opts: VerifyTimeStampOptions = {},
): Promise<TimeStampVerification> {
  const broken = (reason: string): TimeStampVerification => ({
    time: new Date(0),
    valid: false,
    reason,
    failure: 'format',
    chain: 'untrusted',
    chainSubjects: [],
    chainFindings: [],
  });
  let cms;
  let tst: TstInfo;
  try {
    cms = parseCms(token);
    if (cms.eContentType !== OID.tstInfo || !cms.eContent)
      return broken('not a time-stamp token (no TSTInfo)');
    tst = parseTstInfo(cms.eContent);
  } catch (error) {
    return broken(`unreadable time-stamp token: ${(error as Error).message}`);
  }
  const eContent = cms.eContent;
  const pool = makeCertificatePool(trust, cms.certificates, opts.extraCertificates);
  const check = await checkSignerInfo(
    cms.signerInfos[0] as (typeof cms.signerInfos)[0],
    OID.tstInfo,
    [...pool.certificates, ...pool.anchors],
    { digest: async (alg) => digest(alg, eContent), data: eContent },
  );
  const result: TimeStampVerification = {
    time: tst.genTime,
    valid: false,
    tsa: check.signer?.subject,
    chain: 'untrusted',
    chainSubjects: [],
    chainFindings: [],
    policy: tst.policy,
    serialHex: tst.serialHex,
    tsaCertificate: check.signer?.der,
  };
  if (check.signer) {
    const chain = buildChain(check.signer, pool);
    result.chain = chain.status;
    result.chainReason = chain.reason;
    if (chain.failure) result.chainFailure = chain.failure;
    result.chainFindings = chainFindings(chain);
    result.chainSubjects = chain.path.map((c) => c.subject);
  }
  if (check.integrity !== 'valid')
    return {
      ...result,
      reason: `token signature: ${check.integrityReason}`,
      failure: check.failure ?? 'signature',
    };

  let expected: Uint8Array;
  if (data instanceof Uint8Array) {
    if (!tst.hashAlgorithm)
      return {
        ...result,
        reason: `unsupported imprint hash ${tst.hashAlgorithmOid}`,
        failure: 'unsupported',
      };
    expected = digest(tst.hashAlgorithm, data);
  } else {
    if (normalizeHashName(data.algorithm) !== tst.hashAlgorithm)
      return {
        ...result,
        reason: `token imprint uses ${tst.hashAlgorithm ?? tst.hashAlgorithmOid}, not ${data.algorithm}`,
        failure: 'hash',
      };
    expected = data.digest;
  }
  if (!bytesEqual(expected, tst.hashedMessage))
    return {
      ...result,
      reason: `message imprint ${toHex(tst.hashedMessage)} does not match the time-stamped data`,
      failure: 'hash',
    };
  const tsaCert = check.signer;
  if (tsaCert && !tsaCert.extendedKeyUsage?.includes(OID.kpTimeStamping))
    return {
      ...result,
      reason: 'TSA certificate lacks the id-kp-timeStamping extended key usage',
      failure: 'constraints',
    };
  if (tsaCert && (tst.genTime < tsaCert.notBefore || tst.genTime > tsaCert.notAfter))
    return {
      ...result,
      reason: 'genTime lies outside the validity of the TSA certificate',
      failure: 'constraints',
    };
  return { ...result, valid: true };
}
