import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toHex } from './bytes';
import {
  checkOpenings,
  commitEntry,
  commitmentOf,
  decodeLeaf,
  encodeLeaf,
  openEntry,
  parseLeafBody,
  pickOpenings,
  type CommittedLeaf,
} from './commit';
import { encodeEntry, EvidenceEntryError, type EvidenceEntry } from './entry';

const FLOW = 'flw_7Hq2kLm9';
const SEAL = 'SEAL-330100-0042';
const PERSON = 'psn_a1b2c3';
const ORG = 'org_z9y8x7';
const SERIAL = '5f1e0c9d8b7a69584736251403f2e1d0';
const FILE = 'ab'.repeat(32);

const entry: EvidenceEntry = {
  kind: 'sign.sign',
  subject: `flow:${FLOW}`,
  actor: PERSON,
  at: '2025-06-01T08:00:00.123Z',
  hashes: { fileBefore: 'cd'.repeat(32), fileAfter: FILE },
  data: { flowId: FLOW, sealCode: SEAL, organizationId: ORG, serial: SERIAL, byteRange: [0, 10, 20, 30] },
};

/** Salts 01…, 02…, …: fixed bytes so the encoding can be written out. */
function counter() {
  let n = 0;
  return (size: number) => new Uint8Array(size).fill(++n);
}

/** The commitment as the format describes it, written again without the package's helpers. */
function independent(field: string, salt: Buffer, valueJson: string): string {
  const name = Buffer.from(field, 'utf8');
  return createHash('sha256')
    .update('OpenSeal evidence commitment v1')
    .update(Buffer.from([0, name.length >> 8, name.length & 0xff]))
    .update(name)
    .update(salt)
    .update(valueJson, 'utf8')
    .digest('hex');
}

describe('committed leaves', () => {
  it('commit every field but the kind, as the format says, byte for byte', () => {
    const { leaf, openings } = commitEntry(entry, counter());
    expect(Object.keys(leaf.c)).toEqual([
      'subject',
      'actor',
      'at',
      'hashes.fileBefore',
      'hashes.fileAfter',
      'data.flowId',
      'data.sealCode',
      'data.organizationId',
      'data.serial',
      'data.byteRange',
    ]);
    expect(leaf.c.subject).toBe(independent('subject', Buffer.alloc(32, 1), `"flow:${FLOW}"`));
    expect(leaf.c['hashes.fileAfter']).toBe(
      independent('hashes.fileAfter', Buffer.alloc(32, 5), `"${FILE}"`),
    );
    expect(leaf.c['data.byteRange']).toBe(
      independent('data.byteRange', Buffer.alloc(32, 10), '[0,10,20,30]'),
    );
    expect(openings['data.serial']).toEqual({ salt: '09'.repeat(32), value: SERIAL });
    const json = new TextDecoder().decode(encodeLeaf(leaf));
    expect(json).toBe(
      `{"c":{${Object.keys(leaf.c)
        .sort()
        .map((k) => `"${k}":"${leaf.c[k]}"`)
        .join(',')}},"kind":"sign.sign","v":2}`,
    );
    expect(decodeLeaf(encodeLeaf(leaf))).toEqual(leaf);
  });

  it('show nothing of the values, in any encoding, and never repeat a commitment', () => {
    const a = commitEntry(entry);
    const b = commitEntry(entry);
    const json = new TextDecoder().decode(encodeLeaf(a.leaf));
    for (const secret of [FLOW, SEAL, PERSON, ORG, SERIAL, FILE, '2025-06-01', '08:00']) {
      for (const form of [
        secret,
        secret.toUpperCase(),
        Buffer.from(secret).toString('hex'),
        Buffer.from(secret).toString('base64'),
      ])
        expect(json).not.toContain(form);
    }
    expect(json).not.toContain(Buffer.from(FILE, 'hex').toString('base64'));
    // Fresh salts: the same entry twice, and the same id in two fields, give unrelated commitments.
    const all = [...Object.values(a.leaf.c), ...Object.values(b.leaf.c)];
    expect(new Set(all).size).toBe(all.length);
  });

  it('open back to the entry, and refuse openings that do not fit', () => {
    const { leaf, openings } = commitEntry(entry);
    expect(openEntry(leaf, openings)).toEqual(entry);
    expect(() => openEntry(leaf, pickOpenings(openings, ['subject', 'actor']))).toThrow(/not opened: at/);
    const wrong = structuredClone(openings);
    wrong['data.sealCode']!.value = 'SEAL-330100-0043';
    expect(() => openEntry(leaf, wrong)).toThrow(/data.sealCode: the opening does not match/);
    expect(checkOpenings(leaf, { 'data.serial': openings['data.serial'] })).toEqual({
      opened: { 'data.serial': SERIAL },
      errors: [],
    });
    expect(checkOpenings(leaf, { at: { salt: openings.at!.salt, value: NaN } }).errors[0]).toMatch(
      /no canonical JSON form/,
    );
    expect(checkOpenings(leaf, 'x').errors).toEqual(['openings must be an object']);
    expect(checkOpenings(leaf, { constructor: openings.at }).errors).toEqual([
      'constructor: the leaf has no such field',
    ]);
    // An entry without data opens with an empty data object; undefined values are not committed.
    const bare = commitEntry({ ...entry, data: { flowId: FLOW, willBizId: undefined } });
    expect(Object.keys(bare.leaf.c)).not.toContain('data.willBizId');
    expect(openEntry(bare.leaf, bare.openings).data).toEqual({ flowId: FLOW });
  });

  it('read only canonical leaves of version 1 or 2', () => {
    const { leaf } = commitEntry(entry);
    const bytes = encodeLeaf(leaf);
    const spaced = new TextEncoder().encode(JSON.stringify(leaf, null, 1));
    expect(() => decodeLeaf(spaced)).toThrow(/canonical/);
    const bad = (patch: (l: CommittedLeaf) => void) => {
      const l = structuredClone(leaf);
      patch(l);
      return () => parseLeafBody(l);
    };
    expect(bad((l) => (l.c.subject = 'AB'.repeat(32)))).toThrow(/c.subject must be 64/);
    expect(bad((l) => delete (l.c as Record<string, string>).actor)).toThrow(/c.actor is missing/);
    expect(bad((l) => (l.c['misc.x'] = 'ab'.repeat(32)))).toThrow(/not allowed/);
    expect(bad((l) => (l.kind = 'flow:123 abc'))).toThrow(/kind/);
    expect(bad((l) => Object.assign(l, { subject: FLOW }))).toThrow(/unknown field subject/);
    expect(() => commitEntry({ ...entry, data: { 'a\u0000b': 1 } })).toThrow(EvidenceEntryError);
    // A clear leaf of version 1 reads as it was written.
    const clear = encodeEntry(entry);
    expect(decodeLeaf(clear)).toEqual({ ...entry, v: 1 });
    expect(toHex(encodeLeaf({ ...entry, v: 1 }))).toBe(toHex(clear));
    expect(decodeLeaf(bytes)).toEqual(leaf);
    expect(() => commitmentOf('subject', new Uint8Array(16), 'x')).toThrow(/32 bytes/);
  });
});
