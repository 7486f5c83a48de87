import type { CatalogueEntry } from '../catalogue';

/**
 * Catalogue entries of operator-managed trust anchors (12501–12519): other platforms' CA certificates an
 * operator adds so this platform's verifier recognises their seals. Merged into the catalogue in catalogue.ts.
 */
export const TRUST_ANCHORS_ENTRIES = [
  {
    code: 12501,
    http: 400,
    key: 'trustAnchor.notCertificate',
    handling: 'toastFail',
    zh: '不是有效的 X.509 证书（需 PEM 或 DER 格式）',
    en: 'This is not a valid X.509 certificate (PEM or DER expected)',
  },
  {
    code: 12502,
    http: 400,
    key: 'trustAnchor.notCa',
    handling: 'toastFail',
    zh: '该证书不是 CA 证书（需基本约束 cA 为真且密钥用法含证书签名），不能作为信任锚',
    en: 'This is not a CA certificate (basicConstraints cA and keyUsage keyCertSign are required), so it cannot be a trust anchor',
  },
  {
    code: 12503,
    http: 400,
    key: 'trustAnchor.notValidNow',
    handling: 'toastFail',
    zh: '该证书当前不在有效期内（{{notBefore}} 至 {{notAfter}}）；确需添加请明确确认',
    en: 'This certificate is not valid now ({{notBefore}} to {{notAfter}}); confirm explicitly to add it anyway',
  },
  {
    code: 12504,
    http: 409,
    key: 'trustAnchor.duplicate',
    handling: 'toastFail',
    zh: '该证书已在信任锚列表中',
    en: 'This certificate is already in the trust anchor list',
  },
  {
    code: 12505,
    http: 413,
    key: 'trustAnchor.tooLarge',
    handling: 'toastFail',
    zh: '证书过大（不超过 {{max}} 字节）',
    en: 'The certificate is too large (at most {{max}} bytes)',
  },
  {
    code: 12506,
    http: 404,
    key: 'trustAnchor.notFound',
    handling: 'toastFail',
    zh: '信任锚不存在或已删除',
    en: 'The trust anchor does not exist or has been removed',
  },
  {
    code: 12507,
    http: 409,
    key: 'trustAnchor.statusChange',
    handling: 'toastFail',
    zh: '信任锚当前状态不允许该操作',
    en: 'The trust anchor’s current status does not allow this',
  },
  {
    code: 12508,
    http: 409,
    key: 'trustAnchor.alreadyTrusted',
    handling: 'toastFail',
    zh: '该证书已是本平台的信任锚（平台根证书或 TRUST_LIST）',
    en: 'This certificate is already a trust anchor of the platform (its root or TRUST_LIST)',
  },
  {
    code: 12509,
    http: 409,
    key: 'trustAnchor.tooMany',
    handling: 'toastFail',
    zh: '信任锚数量已达上限（{{max}} 个）',
    en: 'The trust anchor list is full ({{max}} anchors)',
  },
  {
    code: 12510,
    http: 400,
    key: 'trustAnchor.selfSignatureInvalid',
    handling: 'toastFail',
    zh: '该根证书的自签名校验失败，证书已损坏或被篡改',
    en: 'The root certificate’s own signature does not verify: it is damaged or altered',
  },
  {
    code: 12511,
    http: 400,
    key: 'trustAnchor.multiple',
    handling: 'toastFail',
    zh: '一次只能添加一个证书',
    en: 'Add one certificate at a time',
  },
] as const satisfies readonly CatalogueEntry[];
