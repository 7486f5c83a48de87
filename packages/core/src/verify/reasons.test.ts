import { describe, expect, it } from 'vitest';
import {
  concludeDocument,
  concludeFindings,
  makeFinding,
  SUB_INDICATIONS,
  VERIFY_REASON_CODES,
  VERIFY_REASONS,
  verifyReasonText,
  type VerifyReasonEntry,
} from './reasons';

describe('verification reasons', () => {
  it('every reason has both languages, and its placeholders are the same in both', () => {
    for (const code of VERIFY_REASON_CODES) {
      const entry: VerifyReasonEntry = VERIFY_REASONS[code];
      expect(entry.zh.length, code).toBeGreaterThan(0);
      expect(entry.en.length, code).toBeGreaterThan(0);
      const names = (t: string) => [...t.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(names(entry.zh), code).toEqual(names(entry.en));
      if (entry.subIndication) expect(SUB_INDICATIONS, code).toContain(entry.subIndication);
      // Only reasons that decide something carry a sub-indication of their own.
      if (entry.severity === 'info') expect(entry.subIndication, code).toBeUndefined();
    }
  });

  it('fills parameters, and marks a missing one', () => {
    expect(verifyReasonText('chain.selfSigned', 'en', { subject: 'CN=杭州示例科技有限公司合同专用章' })).toBe(
      'The signer is not confirmed by this platform: CN=杭州示例科技有限公司合同专用章 is a self-signed certificate outside its trust anchors',
    );
    expect(verifyReasonText('chain.untrusted', 'zh-CN')).toContain('证书签发者 ? 不在');
  });

  it('invalid beats indeterminate beats valid; info changes nothing', () => {
    expect(concludeFindings([])).toEqual({ verdict: 'valid' });
    expect(concludeFindings([makeFinding('timestamp.none')])).toEqual({ verdict: 'valid' });
    expect(concludeFindings([makeFinding('chain.untrusted', { issuer: 'CN=X' })])).toEqual({
      verdict: 'indeterminate',
      subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
    });
    expect(
      concludeFindings([
        makeFinding('revocation.unknown', { reason: 'none' }),
        makeFinding('integrity.hashMismatch'),
      ]),
    ).toEqual({ verdict: 'invalid', subIndication: 'HASH_FAILURE' });
    expect(concludeDocument([])).toBe('no-signatures');
    expect(concludeDocument(['valid', 'indeterminate'])).toBe('indeterminate');
    expect(concludeDocument(['indeterminate', 'invalid', 'valid'])).toBe('invalid');
    expect(concludeDocument(['valid', 'valid'])).toBe('valid');
  });
});
