/**
 * Catalogued reasons of OFD signature verdicts. Verdicts follow ETSI EN 319 102-1: `valid` (intact, and
 * the signer confirmed by a chain to a trust anchor), `invalid` (broken: the document or the signature
 * changed, or the signature's format is unusable) and `indeterminate` (intact, but the signer cannot be
 * confirmed). Each reason has a stable code (1201–1219), the verdict it leads to, the ETSI sub-indication
 * it stands for, and its text in zh-CN and en; `{{files}}` and `{{issuer}}` are filled in where they occur.
 *
 * `packages/ofd` reports these keys (it imports nothing of ours, so its own list of findings is checked
 * against this one by a test); the web OFD viewer and `openseal verify` show the texts. PDF verdicts have
 * their own catalogue beside this one (`VERIFY_REASONS` in reasons.ts), with the same verdicts and
 * sub-indications.
 */

import type { SignatureVerdict, SubIndication } from './reasons';

export type OfdReasonVerdict = SignatureVerdict;

export interface OfdReasonEntry {
  code: number;
  key: string;
  verdict: OfdReasonVerdict;
  /** The ETSI EN 319 102-1 sub-indication the reason stands for (TOTAL_PASSED for the valid one). */
  etsi: SubIndication | 'TOTAL_PASSED';
  zh: string;
  en: string;
}

export const OFD_REASONS = [
  {
    code: 1201,
    key: 'signerConfirmed',
    verdict: 'valid',
    etsi: 'TOTAL_PASSED',
    zh: '签章完整，签章者证书链至本平台信任锚，签章时间在证书有效期内',
    en: 'Intact; the signer’s certificate chains to a trust anchor of this platform and was valid at the signing time',
  },
  {
    code: 1202,
    key: 'referenceChanged',
    verdict: 'invalid',
    etsi: 'HASH_FAILURE',
    zh: '签章后文档被修改：{{files}}',
    en: 'The document was changed after signing: {{files}}',
  },
  {
    code: 1203,
    key: 'referenceMissing',
    verdict: 'invalid',
    etsi: 'HASH_FAILURE',
    zh: '签章保护的内容已缺失：{{files}}',
    en: 'Parts the seal protects are missing: {{files}}',
  },
  {
    code: 1204,
    key: 'noReferences',
    verdict: 'invalid',
    etsi: 'FORMAT_FAILURE',
    zh: '签章未保护任何文档内容',
    en: 'The seal protects no part of the document',
  },
  {
    code: 1205,
    key: 'signedValueMissing',
    verdict: 'invalid',
    etsi: 'FORMAT_FAILURE',
    zh: '签名值缺失',
    en: 'The signature value is missing',
  },
  {
    code: 1206,
    key: 'signedValueUnreadable',
    verdict: 'invalid',
    etsi: 'FORMAT_FAILURE',
    zh: '签名值无法读取',
    en: 'The signature value cannot be read',
  },
  {
    code: 1207,
    key: 'dataHashMismatch',
    verdict: 'invalid',
    etsi: 'HASH_FAILURE',
    zh: '签名值与签章描述不符，签章描述在签名后被改动',
    en: 'The signature value does not match the seal’s description, which was changed after signing',
  },
  {
    code: 1208,
    key: 'signatureInvalid',
    verdict: 'invalid',
    etsi: 'SIG_CRYPTO_FAILURE',
    zh: '签名值与签章者证书不符',
    en: 'The signature value does not match the signer’s certificate',
  },
  {
    code: 1209,
    key: 'unknownCheckMethod',
    verdict: 'indeterminate',
    etsi: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '无法识别签章使用的摘要算法',
    en: 'The seal’s digest method is not known',
  },
  {
    code: 1210,
    key: 'unsupportedAlgorithm',
    verdict: 'indeterminate',
    etsi: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '签名算法不受支持，无法校验签名值',
    en: 'The signature algorithm is not supported, so the signature value cannot be checked',
  },
  {
    code: 1211,
    key: 'noCertificate',
    verdict: 'indeterminate',
    etsi: 'NO_SIGNING_CERTIFICATE_FOUND',
    zh: '签名值不含签章者证书，无法确认签章者',
    en: 'The signature value carries no certificate, so the signer cannot be known',
  },
  {
    code: 1212,
    key: 'noTrustAnchors',
    verdict: 'indeterminate',
    etsi: 'NO_CERTIFICATE_CHAIN_FOUND',
    zh: '未取得本平台信任锚，无法确认签章者',
    en: 'No trust anchors were available, so the signer cannot be confirmed',
  },
  {
    code: 1213,
    key: 'issuerUnknown',
    verdict: 'indeterminate',
    etsi: 'NO_CERTIFICATE_CHAIN_FOUND',
    zh: '签章者未经本平台确认：证书不能链至本平台信任锚（颁发者：{{issuer}}）',
    en: 'Signer not confirmed by this platform: the certificate does not chain to its trust anchors (issuer: {{issuer}})',
  },
  {
    code: 1214,
    key: 'chainInvalid',
    verdict: 'indeterminate',
    etsi: 'CERTIFICATE_CHAIN_GENERAL_FAILURE',
    zh: '证书链校验失败：上级证书的签名不符，或上级证书不是 CA 证书',
    en: 'The certificate chain fails: a link’s signature does not verify, or an issuer is not a CA',
  },
  {
    code: 1215,
    key: 'chainAlgorithmUnsupported',
    verdict: 'indeterminate',
    etsi: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '证书链使用的签名算法不受支持或不再允许',
    en: 'The certificate chain uses a signature algorithm that is not supported or no longer allowed',
  },
  {
    code: 1216,
    key: 'signingTimeOutsideValidity',
    verdict: 'indeterminate',
    etsi: 'OUT_OF_BOUNDS_NO_POE',
    zh: '签章时间不在签章者证书有效期内',
    en: 'The signing time lies outside the signer certificate’s validity',
  },
  {
    code: 1217,
    key: 'certificateExpired',
    verdict: 'indeterminate',
    etsi: 'OUT_OF_BOUNDS_NO_POE',
    zh: '证书链中的证书已过期或尚未生效，且没有签章时间的证明',
    en: 'A certificate of the chain has expired or is not yet valid, and nothing proves when the seal was made',
  },
  {
    code: 1218,
    key: 'noSigningTime',
    verdict: 'indeterminate',
    etsi: 'SIG_CONSTRAINTS_FAILURE',
    zh: '签名值未给出签章时间，无法与证书有效期比对',
    en: 'The signature value gives no signing time to check against the certificate’s validity',
  },
  {
    code: 1219,
    key: 'weakDigest',
    verdict: 'indeterminate',
    etsi: 'CRYPTO_CONSTRAINTS_FAILURE',
    zh: '签章使用的摘要算法 SHA-1 强度不足，已不再允许',
    en: 'The seal’s digests use SHA-1, which is too weak and no longer allowed',
  },
] as const satisfies readonly OfdReasonEntry[];

export type OfdReasonKey = (typeof OFD_REASONS)[number]['key'];

const byKey = new Map<string, OfdReasonEntry>(OFD_REASONS.map((r) => [r.key, r]));

/** The catalogue entry of an OFD verdict reason, or undefined for a key the catalogue does not know. */
export function ofdReasonEntry(key: string): OfdReasonEntry | undefined {
  return byKey.get(key);
}

/** The text of an OFD verdict reason in a language, with `{{name}}` parameters filled in. */
export function ofdReasonText(
  key: string,
  lang: 'zh-CN' | 'en',
  params: Record<string, string | number> = {},
): string {
  const entry = byKey.get(key);
  if (!entry) return key;
  let text: string = lang === 'en' ? entry.en : entry.zh;
  for (const [k, v] of Object.entries(params)) text = text.replaceAll(`{{${k}}}`, String(v));
  return text;
}
