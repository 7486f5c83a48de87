export { buildSignedData, type BuildSignedDataOptions, type CmsAttribute } from './signed-data';
export { buildCadesDetached, type CadesDetachedOptions } from './cades';
export {
  TsaError,
  answerTimeStampReq,
  buildTimeStampReq,
  buildTimeStampResp,
  buildTimeStampToken,
  makeLocalTimestamper,
  parseTimeStampReq,
  readTimeStampResp,
  timeStampRejection,
  type AnswerTimeStampOptions,
  type BuildTimeStampReqOptions,
  type BuildTimeStampRespOptions,
  type LocalTimestamperOptions,
  type TimeStampRequest,
  type TimeStampResponse,
  type TsaFailInfo,
} from './tsa';
export { verifyCms, type CmsSignerSummary, type CmsVerifyInput, type CmsVerifyResult } from './verify';
export {
  parseTstInfo,
  verifyTimeStampToken,
  type TimeStampVerification,
  type TstInfo,
  type VerifyTimeStampOptions,
} from './timestamp-verify';
export {
  buildChain,
  makeCertificatePool,
  type CertificatePool,
  type ChainFailure,
  type ChainResult,
  type ChainStatus,
} from './chain';
export { chainFindings, integrityFinding } from './findings';
export { MIN_RSA_BITS, pathAlgorithmFindings, rsaModulusBits, signerAlgorithmFindings } from './constraints';
export type { IntegrityFailure } from './signer-info';
export { EDDSA_DIGEST } from './algorithms';
export {
  evaluateRevocation,
  readRevocationArchival,
  readRevocationInputs,
  type CrlEvidence,
  type OcspEvidence,
  type RevocationEvidence,
  type RevocationInputs,
  type RevocationSource,
  type RevocationStatus,
} from './revocation';
export type { CertInfo } from './cert';
export { parseCms, type ParsedSignedData, type ParsedSignerInfo } from './cms-parse';
export type { SigningCertificateRef } from './ess';
export { WEAK_HASHES, createHasher, hashByOid, normalizeHashName, type HashName } from './oids';
