export { OcspError, OCSP_STATUS_CODES, type OcspErrorStatus, type OcspResponseStatus } from './ocsp-error';
export { matchesIssuer, type OcspCertId, type OcspHashAlgorithm } from './cert-id';
export {
  parseOcspRequest,
  buildOcspRequest,
  type ParsedOcspRequest,
  type BuildOcspRequestInput,
} from './request';
export {
  buildOcspResponse,
  ocspErrorResponse,
  type BuildOcspResponseInput,
  type OcspAnswer,
  type OcspCertStatus,
} from './response';
export { parseOcspResponse, type OcspResponseEntry, type ParsedOcspResponse } from './parse-response';
