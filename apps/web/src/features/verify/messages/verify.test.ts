import { describe, expect, it } from 'vitest';
import { reasonFromCode } from '../../../../../../packages/pki/src/crl/reasons';
import { en, zhCN } from './verify';

describe('revocation reasons on the verification page', () => {
  it('names every RFC 5280 reason a CRL or OCSP answer can carry, in Chinese and in English', () => {
    const names = Array.from({ length: 11 }, (_, code) => reasonFromCode(code)).filter(
      (n): n is NonNullable<typeof n> => n !== undefined,
    );
    expect(names).toHaveLength(10);
    for (const name of names) {
      expect(zhCN.verify.revocationReason[name], name).toMatch(/[\u4e00-\u9fff]/);
      expect(en.verify.revocationReason[name], name).toMatch(/^[a-z]/);
    }
  });
});
