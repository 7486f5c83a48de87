import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';
import { decodeEntry, encodeEntry, EvidenceEntryError, hashEntry, type EvidenceEntry } from './entry';
import { hashLeaf } from './merkle';
import { toHex } from './bytes';

const H = 'ab'.repeat(32);
const entry: EvidenceEntry = {
  kind: 'seal.made',
  subject: 'SEAL-0001',
  actor: 'p_123',
  at: '2025-01-02T03:04:05.678Z',
  hashes: { sealImage: H, certificate: 'cd'.repeat(32) },
  data: { zeta: [1, 'two', null, true], alpha: { b: 2, a: 1 }, 名称: '公章' },
};

describe('canonical JSON', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: 'é', c: undefined })).toBe(
      '{"a":"é","b":[{"x":2,"y":1}]}',
    );
  });
  it('matches RFC 8785 number and string forms', () => {
    expect(canonicalJson([1e21, 0.1, -0, 1.5e-7, 'a"\\\n\u0001'])).toBe(
      '[1e+21,0.1,0,1.5e-7,"a\\"\\\\\\n\\u0001"]',
    );
  });
  it('refuses values with no single JSON form', () => {
    for (const bad of [NaN, Infinity, 1n, new Date(0), new Map(), [undefined], () => 1, Symbol('x')]) {
      expect(() => canonicalJson(bad), String(bad)).toThrow();
    }
  });
});

describe('evidence entry encoding', () => {
  it('is canonical JSON with a version field, byte for byte', () => {
    const bytes = encodeEntry(entry);
    expect(new TextDecoder().decode(bytes)).toBe(
      '{"actor":"p_123","at":"2025-01-02T03:04:05.678Z","data":{"alpha":{"a":1,"b":2},"zeta":[1,"two",null,true],"名称":"公章"},' +
        `"hashes":{"certificate":"${'cd'.repeat(32)}","sealImage":"${H}"},"kind":"seal.made","subject":"SEAL-0001","v":1}`,
    );
    expect(toHex(hashEntry(entry))).toBe(toHex(hashLeaf(bytes)));
  });

  it('does not depend on key order, and survives a JSON round trip', () => {
    const shuffled = JSON.parse(
      JSON.stringify({
        data: entry.data,
        hashes: entry.hashes,
        at: entry.at,
        actor: entry.actor,
        subject: entry.subject,
        kind: entry.kind,
      }),
    ) as EvidenceEntry;
    expect(encodeEntry(shuffled)).toEqual(encodeEntry(entry));
    expect(decodeEntry(encodeEntry(entry))).toEqual(JSON.parse(JSON.stringify(entry)));
  });

  it('refuses malformed entries', () => {
    const bad: Array<Record<string, unknown>> = [
      { ...entry, kind: 'Seal Made' },
      { ...entry, subject: '' },
      { ...entry, at: '2025-01-02 03:04:05' },
      { ...entry, at: '2025-01-02T03:04:05' },
      { ...entry, hashes: { file: H.toUpperCase() } },
      { ...entry, hashes: { file: 'abc' } },
      { ...entry, hashes: [] },
      { ...entry, data: [1] },
      { ...entry, extra: 1 },
      { ...entry, data: { big: 'x'.repeat(70_000) } },
      { ...entry, data: { n: NaN } },
    ];
    for (const b of bad)
      expect(() => encodeEntry(b as unknown as EvidenceEntry), JSON.stringify(b).slice(0, 80)).toThrow(
        EvidenceEntryError,
      );
  });

  it('refuses leaf bytes that are not canonical or not version 1', () => {
    const good = new TextDecoder().decode(encodeEntry(entry));
    expect(() => decodeEntry(new TextEncoder().encode(good.replace('"v":1', '"v":2')))).toThrow(/version 2/);
    expect(() => decodeEntry(new TextEncoder().encode(` ${good}`))).toThrow(/canonical/);
    expect(() => decodeEntry(new Uint8Array([0xff, 0xfe]))).toThrow(/UTF-8/);
  });
});
