export { buildCrl, type BuildCrlInput, type RevokedEntry } from './build-crl';
export { parseCrl, type CrlEntry, type ParsedCrl } from './parse-crl';
export {
  REASON_CODES,
  isRevocationReason,
  reasonFromCode,
  type AnyRevocationReason,
  type RevocationReason,
} from './reasons';
