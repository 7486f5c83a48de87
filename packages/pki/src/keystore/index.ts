export { KeyStoreError, type KeyStoreErrorCode } from './key-store-error';
export { unwrapKey, wrapKey } from './key-wrap';
export { MemoryKeyRecordStore, newKeyId, type KeyRecord, type KeyRecordStore } from './key-record';
export { SoftwareKeyStore, type SoftwareKeyStoreOptions } from './software-key-store';
export { Pkcs11KeyStore, type Pkcs11KeyStoreOptions } from './pkcs11-key-store';
export { findSoftHsmModule } from './softhsm';
