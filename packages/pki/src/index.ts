import 'reflect-metadata';

export type * from './types';
export * from './cms/index';
export * from './keystore/index';
export * from './ca/index';
export * from './crl/index';
export * from './ocsp/index';
export { toPem, fromPem } from './util/pem';
export {
  readCertificateIdentity,
  readCertificateSerial,
  certificateFingerprint,
  DerError,
  type CertificateIdentity,
} from './serial';
export { LruCache } from './util/lru';
