import { describe, expect, it } from 'vitest';
import { checkOrgName, checkUscc, usccCheckChar } from './org';

describe('checkOrgName (spec 5)', () => {
  it.each([
    ['杭州天谷信息科技有限公司', '杭州天谷信息科技有限公司'],
    ['  OpenSeal Co. Ltd  ', 'OpenSeal Co. Ltd'],
    ['北京某某（集团）有限公司', '北京某某（集团）有限公司'],
    ['Acme (China) Ltd.', 'Acme (China) Ltd.'],
    ['a', 'a'],
    ['阿卜杜·热合曼商行', '阿卜杜·热合曼商行'],
    ['甲'.repeat(100), '甲'.repeat(100)],
    ['Ａｃｍｅ１２３', 'Ａｃｍｅ１２３'],
  ])('accepts %j', (input, value) => {
    expect(checkOrgName(input)).toEqual({ ok: true, value });
  });
  it.each([
    ['', 'org.nameRequired'],
    ['   ', 'org.nameRequired'],
    [null, 'org.nameRequired'],
    ['甲'.repeat(101), 'org.nameFormat'],
    ['12345', 'org.nameFormat'],
    ['(). ', 'org.nameFormat'],
    ['Acme & Sons', 'org.nameFormat'],
    ['公司【集团】', 'org.nameFormat'],
    ['Acme-Tech', 'org.nameFormat'],
    ['Acme\nTech', 'org.nameFormat'],
  ])('rejects %j with %s', (input, key) => {
    expect(checkOrgName(input)).toEqual({ ok: false, key });
  });
  it('counts code points, not UTF-16 units', () => {
    expect(checkOrgName('𠀀'.repeat(100)).ok).toBe(true);
    expect(checkOrgName('𠀀'.repeat(101)).ok).toBe(false);
  });
});

describe('checkUscc (spec 5 + GB 32100-2015)', () => {
  it.each(['91370000728611939A', '91310110666007217T', ' 91310110666007217T '])('accepts %j', (input) => {
    expect(checkUscc(input)).toEqual({ ok: true, value: input.trim() });
  });
  it.each([
    ['', 'org.usccRequired'],
    [undefined, 'org.usccRequired'],
    ['91110108551385082F', 'org.usccFormat'], // wrong check character
    ['91370000728611939', 'org.usccFormat'], // 17
    ['91370000728611939AA', 'org.usccFormat'], // 19
    ['91370000728611939a', 'org.usccFormat'], // lower case
    ['9I370000728611939A', 'org.usccFormat'], // I not in the set
    ['91A70000728611939A', 'org.usccFormat'], // letter among the six digits
    ['９１３７００００７２８６１１９３９Ａ', 'org.usccFormat'], // full-width
    ['913700007286119O9A', 'org.usccFormat'], // O not in the set
  ])('rejects %j with %s', (input, key) => {
    expect(checkUscc(input)).toEqual({ ok: false, key });
  });
  it('123456789012345678 passes the checksum but the structure rule still applies to it', () => {
    expect(usccCheckChar('12345678901234567')).toBe('8');
    expect(checkUscc('123456789012345678').ok).toBe(true);
  });
  it('computes check characters', () => {
    expect(usccCheckChar('91370000728611939')).toBe('A');
    expect(usccCheckChar('9137000072861193I')).toBeNull();
  });
});
