/**
 * Verdicts of signature verification and the catalogue of reasons behind them, shared by every verifier
 * of the platform (PDF, OFD) and every place that shows a result (API, CLI, verify pages, PDF report).
 *
 * The verdicts follow ETSI EN 319 102-1: a signature is `valid` when it is intact and its signer is
 * confirmed, `invalid` when it is broken or the document was changed in a way it forbids, and
 * `indeterminate` when it is intact but the signer cannot be confirmed (unknown issuer, revocation
 * unknown, expired without proof of existence, algorithm not allowed) or the document gained visible
 * content after it. Each reason carries the severity it imposes and, where one fits, the ETSI
 * sub-indication; `DISALLOWED_MODIFICATION` and `UNCONFIRMED_MODIFICATION` are OpenSeal's own, for
 * changes to a PDF after signing, which ETSI leaves to the format.
 */
import type { Language } from '../errors/catalogue';

export const SIGNATURE_VERDICTS = ['valid', 'invalid', 'indeterminate'] as const;
export type SignatureVerdict = (typeof SIGNATURE_VERDICTS)[number];
export const DOCUMENT_VERDICTS = [...SIGNATURE_VERDICTS, 'no-signatures'] as const;
export type DocumentVerdict = (typeof DOCUMENT_VERDICTS)[number];

export const SUB_INDICATIONS = [
  // ETSI EN 319 102-1, 5.1.3
  'FORMAT_FAILURE',
  'HASH_FAILURE',
  'SIG_CRYPTO_FAILURE',
  'REVOKED',
  'EXPIRED',
  'NOT_YET_VALID',
  'SIG_CONSTRAINTS_FAILURE',
  'CHAIN_CONSTRAINTS_FAILURE',
  'CERTIFICATE_CHAIN_GENERAL_FAILURE',
  'CRYPTO_CONSTRAINTS_FAILURE',
  'NO_SIGNING_CERTIFICATE_FOUND',
  'NO_CERTIFICATE_CHAIN_FOUND',
  'REVOKED_NO_POE',
  'OUT_OF_BOUNDS_NO_POE',
  'TRY_LATER',
  // OpenSeal: changes to a PDF after signing
  'DISALLOWED_MODIFICATION',
  'UNCONFIRMED_MODIFICATION',
] as const;
export type SubIndication = (typeof SUB_INDICATIONS)[number];

/** What a reason does to a verdict: makes it invalid, indeterminate, or only informs. */
export type FindingSeverity = 'invalid' | 'indeterminate' | 'info';

export interface VerifyReasonEntry {
  severity: FindingSeverity;
  subIndication?: SubIndication;
  /** Text with {{name}} placeholders filled from the finding's parameters. */
  zh: string;
  en: string;
}

export const VERIFY_REASONS = {
  // The signature's own structure and bytes.
  'format.byteRange': {
    severity: 'invalid',
    subIndication: 'FORMAT_FAILURE',
    zh: '签名的字节范围（/ByteRange）不正确：{{problem}}',
    en: 'The signed byte range (/ByteRange) is wrong: {{problem}}',
  },
  'format.noContents': {
    severity: 'invalid',
    subIndication: 'FORMAT_FAILURE',
    zh: '签名域中没有签名数据（/Contents）',
    en: 'The signature holds no signature data (/Contents)',
  },
  'format.cmsUnreadable': {
    severity: 'invalid',
    subIndication: 'FORMAT_FAILURE',
    zh: '签名数据无法解析：{{reason}}',
    en: 'The signature data cannot be read: {{reason}}',
  },
  'integrity.hashMismatch': {
    severity: 'invalid',
    subIndication: 'HASH_FAILURE',
    zh: '签名后被签内容已被改动（摘要不符）',
    en: 'The signed content was changed after signing (the digest does not match)',
  },
  'integrity.signatureInvalid': {
    severity: 'invalid',
    subIndication: 'SIG_CRYPTO_FAILURE',
    zh: '签名值校验失败：{{reason}}',
    en: 'The signature value does not verify: {{reason}}',
  },
  'signer.certificateMissing': {
    severity: 'indeterminate',
    subIndication: 'NO_SIGNING_CERTIFICATE_FOUND',
    zh: '找不到签名人证书，无法校验签名',
    en: "The signer's certificate is not available, so the signature cannot be checked",
  },
  'signer.certificateRefMismatch': {
    severity: 'indeterminate',
    subIndication: 'NO_SIGNING_CERTIFICATE_FOUND',
    zh: '签名属性中绑定的证书与签名人证书不一致',
    en: "The certificate named in the signed attributes is not the signer's certificate",
  },

  // Algorithms.
  'algorithm.unsupported': {
    severity: 'indeterminate',
    subIndication: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '不支持的算法：{{algorithm}}',
    en: 'Unsupported algorithm: {{algorithm}}',
  },
  'algorithm.weak': {
    severity: 'indeterminate',
    subIndication: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '签名使用了不再安全的算法 {{algorithm}}',
    en: 'The signature uses {{algorithm}}, which is no longer secure',
  },
  'algorithm.weakCertificate': {
    severity: 'indeterminate',
    subIndication: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '证书 {{subject}} 的签名使用了不再安全的算法 {{algorithm}}',
    en: 'The certificate {{subject}} is signed with {{algorithm}}, which is no longer secure',
  },
  'algorithm.weakKey': {
    severity: 'indeterminate',
    subIndication: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '证书 {{subject}} 的 RSA 密钥只有 {{bits}} 位（至少需要 2048 位）',
    en: 'The RSA key of {{subject}} has only {{bits}} bits (at least 2048 are required)',
  },
  'algorithm.eddsaDigest': {
    severity: 'indeterminate',
    subIndication: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '{{signature}} 签名必须使用 {{required}} 摘要，实际使用了 {{digest}}（RFC 8419）',
    en: 'A {{signature}} signature must use the {{required}} digest, not {{digest}} (RFC 8419)',
  },

  // The signer's certificate and its path to a trust anchor.
  'chain.untrusted': {
    severity: 'indeterminate',
    subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
    zh: '签名人未经本平台确认：证书签发者 {{issuer}} 不在本平台的信任列表中',
    en: 'The signer is not confirmed by this platform: the certificate issuer {{issuer}} is not among its trust anchors',
  },
  'chain.selfSigned': {
    severity: 'indeterminate',
    subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
    zh: '签名人未经本平台确认：证书 {{subject}} 是自签名证书，不在本平台的信任列表中',
    en: 'The signer is not confirmed by this platform: {{subject}} is a self-signed certificate outside its trust anchors',
  },
  'chain.issuerMissing': {
    severity: 'indeterminate',
    subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
    zh: '签名人未经本平台确认：找不到签发者 {{issuer}} 的证书',
    en: 'The signer is not confirmed by this platform: the certificate of its issuer {{issuer}} is not available',
  },
  'chain.broken': {
    severity: 'invalid',
    subIndication: 'CERTIFICATE_CHAIN_GENERAL_FAILURE',
    zh: '证书链校验失败：{{reason}}',
    en: 'The certificate chain does not verify: {{reason}}',
  },
  'chain.constraints': {
    severity: 'indeterminate',
    subIndication: 'CHAIN_CONSTRAINTS_FAILURE',
    zh: '证书链不满足约束：{{reason}}',
    en: 'The certificate chain breaks a constraint: {{reason}}',
  },

  // Validity periods and proof of existence.
  'validity.expiredNoPoe': {
    severity: 'indeterminate',
    subIndication: 'OUT_OF_BOUNDS_NO_POE',
    zh: '证书 {{subject}} 已于 {{notAfter}} 过期，且没有可信时间戳证明签名在此之前完成',
    en: 'The certificate {{subject}} expired on {{notAfter}} and no trusted timestamp proves the signature was made before',
  },
  'validity.notYetValid': {
    severity: 'indeterminate',
    subIndication: 'NOT_YET_VALID',
    zh: '签名时间 {{time}} 早于证书生效时间 {{notBefore}}',
    en: 'The signing time {{time}} is before the certificate became valid ({{notBefore}})',
  },
  'validity.expiredAtSigning': {
    severity: 'invalid',
    subIndication: 'EXPIRED',
    zh: '可信时间戳证明签名于 {{time}} 完成，此时证书已于 {{notAfter}} 过期',
    en: 'A trusted timestamp shows the signature was made at {{time}}, after the certificate expired ({{notAfter}})',
  },

  // Revocation.
  'revocation.unknown': {
    severity: 'indeterminate',
    subIndication: 'TRY_LATER',
    zh: '无法确定证书是否已吊销：{{reason}}',
    en: 'Whether the certificate is revoked cannot be determined: {{reason}}',
  },
  'revocation.revokedNoPoe': {
    severity: 'indeterminate',
    subIndication: 'REVOKED_NO_POE',
    zh: '证书已于 {{revokedAt}} 吊销，且没有可信时间戳证明签名早于吊销',
    en: 'The certificate was revoked on {{revokedAt}} and no trusted timestamp proves the signature was made before',
  },
  'revocation.revokedBeforeSigning': {
    severity: 'invalid',
    subIndication: 'REVOKED',
    zh: '证书已于 {{revokedAt}} 吊销，早于可信时间戳证明的签名时间 {{time}}',
    en: 'The certificate was revoked on {{revokedAt}}, before the signing time {{time}} a trusted timestamp proves',
  },
  'revocation.revokedAfterSigning': {
    severity: 'info',
    zh: '证书于 {{revokedAt}} 吊销，晚于可信时间戳证明的签名时间 {{time}}，签名不受影响',
    en: 'The certificate was revoked on {{revokedAt}}, after the signing time {{time}} a trusted timestamp proves; the signature stands',
  },

  // Timestamps.
  'timestamp.invalid': {
    severity: 'indeterminate',
    subIndication: 'SIG_CONSTRAINTS_FAILURE',
    zh: '签名时间戳校验失败：{{reason}}',
    en: 'The signature timestamp does not verify: {{reason}}',
  },
  'timestamp.untrusted': {
    severity: 'info',
    zh: '时间戳机构 {{tsa}} 不在信任列表中，其时间不作为签名时间的证明',
    en: 'The timestamp authority {{tsa}} is not trusted; its time is not taken as proof of the signing time',
  },
  'timestamp.none': {
    severity: 'info',
    zh: '签名没有可信时间戳，签名时间仅为签名人自述',
    en: "The signature carries no trusted timestamp; the signing time is the signer's own claim",
  },

  // Changes to a PDF after the signature.
  'changes.disallowed': {
    severity: 'invalid',
    subIndication: 'DISALLOWED_MODIFICATION',
    zh: '签名后文档被以不允许的方式修改（{{count}} 处），例如：{{first}}',
    en: 'The document was changed after signing in ways not permitted ({{count}}), e.g. {{first}}',
  },
  'changes.visibleAnnotation': {
    severity: 'indeterminate',
    subIndication: 'UNCONFIRMED_MODIFICATION',
    zh: '签名后第 {{page}} 页新增了显示内容的注释（{{subtype}}）：{{text}}',
    en: 'After signing, a {{subtype}} annotation showing content was added on page {{page}}: {{text}}',
  },
  'changes.annotationChanged': {
    severity: 'indeterminate',
    subIndication: 'UNCONFIRMED_MODIFICATION',
    zh: '签名后第 {{page}} 页的注释（{{subtype}}）被修改或删除',
    en: 'After signing, a {{subtype}} annotation on page {{page}} was changed or removed',
  },
  'changes.fieldAdded': {
    severity: 'indeterminate',
    subIndication: 'UNCONFIRMED_MODIFICATION',
    zh: '签名后第 {{page}} 页新增了表单域“{{field}}”',
    en: 'After signing, the form field "{{field}}" was added on page {{page}}',
  },
  'changes.allowed': {
    severity: 'info',
    zh: '签名后文档有 {{count}} 处允许的修改（如后续签名、表单填写、验证数据）',
    en: 'The document has {{count}} permitted change(s) after signing (further signatures, form filling, validation data)',
  },

  // The document as a whole.
  'document.noSignatures': {
    severity: 'info',
    zh: '文档中没有签名',
    en: 'The document holds no signatures',
  },
  'document.signatureInvalid': {
    severity: 'invalid',
    zh: '签名“{{field}}”（{{signer}}）无效',
    en: 'The signature "{{field}}" ({{signer}}) is invalid',
  },
  'document.signatureIndeterminate': {
    severity: 'indeterminate',
    zh: '签名“{{field}}”（{{signer}}）的签名人未能确认',
    en: 'The signer of "{{field}}" ({{signer}}) cannot be confirmed',
  },
  'document.repaired': {
    severity: 'info',
    zh: '文件的交叉引用数据已损坏，修订版本通过扫描文件恢复',
    en: 'The cross-reference data is damaged; the revisions were recovered by scanning the file',
  },
  'document.unsignedField': {
    severity: 'info',
    zh: '签名域“{{field}}”尚未签署',
    en: 'The signature field "{{field}}" is not signed',
  },
} as const satisfies Record<string, VerifyReasonEntry>;

export type VerifyReasonCode = keyof typeof VERIFY_REASONS;
export const VERIFY_REASON_CODES = Object.keys(VERIFY_REASONS) as VerifyReasonCode[];

export type FindingParams = Record<string, string | number>;

/** One catalogued reason as a verifier reports it: the code, the severity it imposes, its parameters. */
export interface VerifyFinding {
  code: VerifyReasonCode;
  severity: FindingSeverity;
  params?: FindingParams;
}

export function isVerifyReasonCode(code: string): code is VerifyReasonCode {
  return Object.hasOwn(VERIFY_REASONS, code);
}

export function makeFinding(code: VerifyReasonCode, params?: FindingParams): VerifyFinding {
  const entry: VerifyReasonEntry = VERIFY_REASONS[code];
  return params ? { code, severity: entry.severity, params } : { code, severity: entry.severity };
}

/** The text of a reason in a language, its {{placeholders}} filled (a missing parameter reads "?"). */
export function verifyReasonText(code: VerifyReasonCode, lang: Language, params?: FindingParams): string {
  const entry: VerifyReasonEntry = VERIFY_REASONS[code];
  const text = lang === 'en' ? entry.en : entry.zh;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = params?.[name];
    return value === undefined ? '?' : String(value);
  });
}

/**
 * The verdict a list of findings gives: invalid when one is invalid, else indeterminate when one is,
 * else valid; the sub-indication is that of the first decisive finding that has one.
 */
export function concludeFindings(findings: readonly VerifyFinding[]): {
  verdict: SignatureVerdict;
  subIndication?: SubIndication;
} {
  for (const severity of ['invalid', 'indeterminate'] as const) {
    const decisive = findings.filter((f) => f.severity === severity);
    if (decisive.length === 0) continue;
    const withSub = decisive
      .map((f) => (VERIFY_REASONS[f.code] as VerifyReasonEntry).subIndication)
      .find((s) => s !== undefined);
    return withSub ? { verdict: severity, subIndication: withSub } : { verdict: severity };
  }
  return { verdict: 'valid' };
}

/** A document is invalid if any signature is, else indeterminate if any is, else valid. */
export function concludeDocument(verdicts: readonly SignatureVerdict[]): DocumentVerdict {
  if (verdicts.length === 0) return 'no-signatures';
  if (verdicts.includes('invalid')) return 'invalid';
  if (verdicts.includes('indeterminate')) return 'indeterminate';
  return 'valid';
}
