import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  append,
  appendClearEntry,
  buildProofBundle,
  createKeySigner,
  createMemoryLogStore,
  publishTreeHead,
  spkiToPem,
  toBase64,
  type CommittedLeaf,
  type ProofBundleV2,
} from '@openseal/evidence';
import { evidenceCommand } from './evidence-command';

const dir = mkdtempSync(join(tmpdir(), 'evidence-cli-'));
const signer = createKeySigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
const stranger = createKeySigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
/** A party's bundle of leaf 4 (every opening); the public one of the same leaf; a withheld clear leaf 0. */
let bundle: ProofBundleV2;
let publicBundle: ProofBundleV2;
let clearBundle: ProofBundleV2;

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await evidenceCommand(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}
function write(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
const copy = () => JSON.parse(JSON.stringify(bundle)) as ProofBundleV2;

beforeAll(async () => {
  const store = createMemoryLogStore();
  for (let i = 0; i < 6; i++) {
    // The first leaf as logs wrote them before commitments: in clear.
    await (i === 0 ? appendClearEntry : append)(store, {
      kind: 'approval',
      subject: `flow-${i}`,
      actor: `p_${i}`,
      at: '2025-05-06T07:08:09.000Z',
      hashes: { file: String(i).repeat(64) },
    });
  }
  const sth = await publishTreeHead(store, signer);
  bundle = await buildProofBundle(store, 4, sth, signer.publicKeySpki, { open: 'all' });
  publicBundle = await buildProofBundle(store, 4, sth, signer.publicKeySpki);
  clearBundle = await buildProofBundle(store, 0, sth, signer.publicKeySpki);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openseal evidence verify', () => {
  it('passes a genuine bundle, with the key unpinned, pinned by PEM file or by base64', async () => {
    const file = write('good.json', bundle);
    const plain = await run('verify', file);
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/^ok {4}format/m);
    expect(plain.out).toMatch(/key not pinned/);
    expect(plain.out).toMatch(/^ok {4}openings: 4 of 4 fields opened: actor, at, hashes.file, subject$/m);
    expect(plain.out).toContain(`      hashes.file = "${'4'.repeat(64)}"\n`);
    expect(plain.out).toContain('      subject = "flow-4"\n');
    expect(plain.out).toMatch(/verified: leaf 4 \(approval flow-4\)/);
    const pem = write('log.pem', spkiToPem(signer.publicKeySpki));
    expect((await run('verify', file, '--key', pem)).code).toBe(0);
    const pinned = await run('verify', file, '--key', toBase64(signer.publicKeySpki), '--json');
    expect(pinned.code).toBe(0);
    const json = JSON.parse(pinned.out) as {
      ok: boolean;
      leafIndex: number;
      checks: Array<{ name: string; ok: boolean }>;
    };
    expect(json).toMatchObject({
      ok: true,
      leafIndex: 4,
      treeSize: 6,
      kind: 'approval',
      opened: {
        subject: 'flow-4',
        actor: 'p_4',
        at: '2025-05-06T07:08:09.000Z',
        'hashes.file': '4'.repeat(64),
      },
    });
    expect(json.checks.map((c) => c.name)).toEqual([
      'format',
      'leaf hash',
      'openings',
      'inclusion',
      'tree head signature',
      'log key',
    ]);
    // A saved API answer ({code, message, data}) works as well.
    expect((await run('verify', write('answer.json', { code: 0, message: 'ok', data: bundle }))).code).toBe(
      0,
    );
  });

  it('proves the inclusion of a bundle without openings, and of a withheld clear leaf', async () => {
    const r = await run('verify', write('public.json', publicBundle));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^ok {4}openings: no fields opened: the leaf shows its kind \(approval\) and 4 commitments$/m,
    );
    expect(r.out).not.toContain('flow-4');
    expect(r.out).toMatch(/verified: leaf 4 \(approval\) is in the evidence log/);
    const clear = await run('verify', write('clear.json', clearBundle), '--json');
    expect(clear.code).toBe(0);
    expect(JSON.parse(clear.out)).toMatchObject({ ok: true, leafIndex: 0, kind: null, opened: {} });
    const text = await run('verify', write('clear.json', clearBundle));
    expect(text.out).toMatch(/verified: leaf 0 \(leaf withheld, hash only\)/);
  });

  it('exits 1 on tampered bundles and on a wrong pinned key, naming the failed check', async () => {
    const entry = copy();
    (entry.leaf as CommittedLeaf).c['hashes.file'] = '9'.repeat(64);
    const opening = copy();
    opening.openings['hashes.file']!.value = '9'.repeat(64);
    const path = copy();
    path.inclusionPath[0] = 'f'.repeat(64);
    const sig = copy();
    const raw = Buffer.from(sig.treeHead.signature, 'base64');
    raw[raw.length - 2]! ^= 0x40;
    sig.treeHead.signature = raw.toString('base64');
    for (const [name, b, failed] of [
      ['entry', entry, /FAIL {2}leaf hash/],
      ['opening', opening, /FAIL {2}openings: hashes.file: the opening does not match/],
      ['path', path, /FAIL {2}inclusion/],
      ['signature', sig, /FAIL {2}tree head signature/],
    ] as const) {
      const r = await run('verify', write(`${name}.json`, b));
      expect(r.code, name).toBe(1);
      expect(r.out).toMatch(failed);
      expect(r.out).toMatch(/NOT verified/);
    }
    const wrongKey = await run(
      'verify',
      write('good.json', bundle),
      '--key',
      toBase64(stranger.publicKeySpki),
    );
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/FAIL {2}log key/);
  });

  it('exits 2 with one line on stderr for unusable input', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['verify', join(dir, 'missing.json')], /cannot read .*ENOENT/],
      [['verify', write('garbage.json', 'not json {')], /is not JSON/],
      [['verify', write('v3.json', { ...bundle, version: 3 })], /unsupported proof bundle version 3/],
      [['verify', write('array.json', [1, 2])], /JSON object/],
      [['verify', write('good.json', bundle), '--key', 'bm90IGEga2V5'], /not a P-256 public key/],
      [['verify'], /exactly one/],
      [['check', 'x'], /unknown subcommand/],
      [['verify', 'a', '--frobnicate'], /frobnicate/],
    ];
    for (const [argv, reason] of cases) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(reason);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.out).toBe('');
    }
  });
});
