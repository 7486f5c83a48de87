import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { toBase64, toHex } from './bytes';
import { hashEntry } from './entry';
import { checkProofBundle, parseProofBundle, ProofBundleError, type ProofBundle } from './bundle';
import { append, buildProofBundle, publishTreeHead } from './log';
import { createMemoryLogStore } from './log-store';
import { createKeySigner, spkiToPem } from './tree-head';

const newSigner = () => createKeySigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
const signer = newSigner();
let bundle: ProofBundle;

beforeAll(async () => {
  const store = createMemoryLogStore();
  for (let i = 0; i < 13; i++) {
    await append(store, {
      kind: 'sign',
      subject: `flow-${i}`,
      actor: 'p_1',
      at: '2025-03-04T05:06:07.000Z',
      hashes: { fileAfter: (i + 16).toString(16).repeat(32) },
      data: { page: i },
    });
  }
  const sth = await publishTreeHead(store, signer);
  bundle = await buildProofBundle(store, 9, sth, signer.publicKeySpki);
});

const copy = (): ProofBundle => JSON.parse(JSON.stringify(bundle)) as ProofBundle;
const failed = (b: unknown, opts?: { trustedKeys?: string[] }) =>
  checkProofBundle(b, opts)
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);

describe('proof bundles', () => {
  it('check offline, with and without a pinned key', () => {
    const plain = checkProofBundle(copy());
    expect(plain.ok).toBe(true);
    expect(plain.checks.map((c) => c.name)).toEqual([
      'format',
      'leaf hash',
      'inclusion',
      'tree head signature',
      'log key',
    ]);
    expect(plain.checks.at(-1)!.detail).toMatch(/^key not pinned/);
    expect(checkProofBundle(copy(), { trustedKeys: [toBase64(signer.publicKeySpki)] }).ok).toBe(true);
    expect(checkProofBundle(copy(), { trustedKeys: [spkiToPem(signer.publicKeySpki)] }).ok).toBe(true);
  });

  it('fail the right check when tampered with', () => {
    const entryChanged = copy();
    entryChanged.entry.actor = 'p_2';
    expect(failed(entryChanged)).toEqual(['leaf hash', 'inclusion']);

    // A forger who also fixes up leafHash still needs a path to the signed root.
    const bothChanged = copy();
    bothChanged.entry.subject = 'flow-0';
    bothChanged.leafHash = toHex(hashEntry(bothChanged.entry));
    expect(failed(bothChanged)).toEqual(['inclusion']);

    const path = copy();
    path.inclusionPath[1] = path.inclusionPath[1]!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(failed(path)).toEqual(['inclusion']);

    const index = copy();
    index.leafIndex = 8;
    expect(failed(index)).toEqual(['inclusion']);

    const size = copy();
    size.treeHead.treeSize = 26;
    expect(failed(size)).toEqual(['inclusion', 'tree head signature']);

    const sig = copy();
    const raw = Buffer.from(sig.treeHead.signature, 'base64');
    raw[raw.length - 1]! ^= 1;
    sig.treeHead.signature = raw.toString('base64');
    expect(failed(sig)).toEqual(['tree head signature']);

    const other = newSigner();
    const swappedKey = copy();
    swappedKey.logPublicKey = toBase64(other.publicKeySpki);
    expect(failed(swappedKey)).toEqual(['tree head signature']);

    expect(failed(copy(), { trustedKeys: [toBase64(other.publicKeySpki)] })).toEqual(['log key']);
    expect(failed(copy(), { trustedKeys: [] })).toEqual(['log key']);
  });

  it('refuse what is not a version-1 bundle, with a reason', () => {
    expect(() => parseProofBundle({ ...copy(), version: 2 })).toThrow(ProofBundleError);
    expect(() => parseProofBundle({ ...copy(), version: 2 })).toThrow(/version 2/);
    expect(() => parseProofBundle({ ...copy(), inclusionPath: ['XYZ'] })).toThrow(/inclusionPath/);
    expect(() => parseProofBundle('hello')).toThrow(/JSON object/);
    expect(checkProofBundle(null)).toEqual({
      ok: false,
      checks: [{ name: 'format', ok: false, detail: 'a proof bundle is a JSON object' }],
    });
  });
});
