export { newSerialNumber } from './serial';
export { issueCertificate, type CertificateIssuer, type IssueRequest, type IssuedCertificate } from './issue';
export { describeCertificate, describeCertificateCached, type CertificateSummary } from './describe';
export { inspectAnchorCertificate, type AnchorInspection } from './inspect-anchor';
export {
  PROFILES,
  POLICY_ARC,
  OPENSEAL_OID_ARC,
  TSA_POLICY_OID,
  isCertificateProfile,
  type CertificateProfile,
  type ProfileRules,
} from './profiles';
export type { SubjectSpec } from './subject';
export type { CertificateUrls } from './extensions';
