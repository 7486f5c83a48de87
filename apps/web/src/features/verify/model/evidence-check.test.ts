import { describe, expect, it } from 'vitest';
import {
  checkEvidence,
  checkRecord,
  commitmentOf,
  derToRawSignature,
  encodeTreeHead,
  fromHex,
  leafHashOf,
  rootFromPath,
  sha256,
  toHex,
  verifyTreeHeadSignature,
  type EvidenceRecord,
  type VerifyEvidence,
} from './evidence-check';
// Made by the evidence package itself (packages/evidence: append, publishTreeHead, buildProofBundle) on a
// log of ten leaves with a fresh P-256 key: a signing act opened for the holder of the file it produced,
// the verification of that file, and an early clear leaf that is withheld (hash only).
import fixture from './evidence-fixture.json';

type Bundle = EvidenceRecord['bundle'];
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function recordOf(bundle: Bundle, opened: Record<string, unknown> = {}): EvidenceRecord {
  const leaf = bundle.leaf && bundle.leaf.v === 2 ? bundle.leaf : null;
  return {
    leafIndex: bundle.leafIndex,
    leafHash: bundle.leafHash,
    kind: leaf?.kind ?? null,
    leaf,
    opened,
    inclusionPath: bundle.inclusionPath,
    bundle,
  };
}

function evidence(over: Partial<VerifyEvidence> = {}): VerifyEvidence {
  const f = clone(fixture) as unknown as {
    sha256: string;
    treeHead: VerifyEvidence['treeHead'];
    logPublicKey: string;
    signing: Bundle;
    verification: Bundle;
  };
  return {
    reportId: 'vr_test',
    sha256: f.sha256,
    treeHead: f.treeHead,
    logKeyId: f.treeHead.keyId,
    logPublicKey: f.logPublicKey,
    signing: [recordOf(f.signing)],
    verification: recordOf(f.verification),
    ...over,
  };
}

/** MTH and PATH of RFC 9162 2.1.1 and 2.1.3.1, written out recursively as the RFC states them. */
async function mth(leaves: Uint8Array[]): Promise<Uint8Array> {
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(Uint8Array.of(1), await mth(leaves.slice(0, k)), await mth(leaves.slice(k)));
}
async function path(m: number, leaves: Uint8Array[]): Promise<Uint8Array[]> {
  if (leaves.length === 1) return [];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return m < k
    ? [...(await path(m, leaves.slice(0, k))), await mth(leaves.slice(k))]
    : [...(await path(m - k, leaves.slice(k))), await mth(leaves.slice(0, k))];
}

describe('evidence checked in the browser', () => {
  it('holds for what the evidence package made: leaf hashes, openings, the file hash, inclusion, the signed head', async () => {
    const ev = evidence();
    const check = await checkEvidence(ev, fixture.sha256);
    expect(check.treeHeadSignature).toBe(true);
    expect(check.keyId).toBe(true);
    expect(check.records.map((r) => [r.leafIndex, r.leafHash, r.openings, r.fileHash, r.inclusion])).toEqual([
      [fixture.signing.leafIndex, 'ok', 'ok', 'ok', 'ok'],
      [fixture.verification.leafIndex, 'ok', 'ok', 'ok', 'ok'],
    ]);
    expect(check.records[0]!.computedRoot).toBe(fixture.treeHead.rootHash);
    expect(check.ok).toBe(true);
  });

  it('proves a withheld clear leaf by its hash only', async () => {
    const legacy = clone(fixture.legacy) as unknown as Bundle;
    const r = await checkRecord(recordOf(legacy), fixture.treeHead, fixture.sha256);
    expect(r).toMatchObject({
      leafHash: 'none',
      openings: 'none',
      fileHash: 'none',
      inclusion: 'ok',
      ok: true,
    });
  });

  it('fails on any change: a path node, the root, the leaf, an opening, the file, the signature, the key', async () => {
    const sha = fixture.sha256;
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);

    const badPath = evidence();
    badPath.signing[0]!.bundle.inclusionPath[0] = flip(badPath.signing[0]!.bundle.inclusionPath[0]!);
    badPath.signing[0]!.inclusionPath = badPath.signing[0]!.bundle.inclusionPath;
    const c1 = await checkEvidence(badPath, sha);
    expect([c1.records[0]!.inclusion, c1.ok]).toEqual(['fail', false]);

    const shortPath = evidence();
    shortPath.verification.bundle.inclusionPath.pop();
    expect((await checkEvidence(shortPath, sha)).records[1]!.inclusion).toBe('fail');

    const badRoot = evidence();
    badRoot.treeHead.rootHash = flip(badRoot.treeHead.rootHash);
    const c2 = await checkEvidence(badRoot, sha);
    expect(c2.treeHeadSignature).toBe(false);
    expect(c2.records.every((r) => r.inclusion === 'fail' && !r.sameHead)).toBe(true);

    const badLeaf = evidence();
    const leaf = badLeaf.signing[0]!.bundle.leaf as { c: Record<string, string> };
    leaf.c.at = flip(leaf.c.at!);
    const c3 = await checkEvidence(badLeaf, sha);
    expect(c3.records[0]!.leafHash).toBe('fail');
    expect(c3.ok).toBe(false);

    const badOpening = evidence();
    badOpening.signing[0]!.bundle.openings['hashes.fileAfter']!.value = 'f'.repeat(64);
    const c4 = await checkEvidence(badOpening, 'f'.repeat(64));
    expect([c4.records[0]!.openings, c4.records[0]!.fileHash]).toEqual(['fail', 'fail']);

    const otherFile = await checkEvidence(evidence(), 'f'.repeat(64));
    expect(otherFile.records[0]!.fileHash).toBe('fail');
    expect(otherFile.ok).toBe(false);

    const badSignature = evidence();
    badSignature.treeHead.timestamp += 1;
    for (const r of [...badSignature.signing, badSignature.verification]) r.bundle.treeHead.timestamp += 1;
    const c5 = await checkEvidence(badSignature, sha);
    expect(c5.treeHeadSignature).toBe(false);
    expect(c5.records.every((r) => r.inclusion === 'ok')).toBe(true);
    expect(c5.ok).toBe(false);

    const otherKey = evidence({ logKeyId: 'f'.repeat(64) });
    expect((await checkEvidence(otherKey, sha)).keyId).toBe(false);
  });

  it('recomputes commitments and leaf hashes as the evidence package does', async () => {
    const opening = fixture.signing.openings['hashes.fileAfter'];
    const leaf = fixture.signing.leaf as { c: Record<string, string> };
    expect(await commitmentOf('hashes.fileAfter', opening.salt, opening.value)).toBe(
      leaf.c['hashes.fileAfter'],
    );
    expect(await commitmentOf('hashes.fileBefore', opening.salt, opening.value)).not.toBe(
      leaf.c['hashes.fileAfter'],
    );
    expect(await commitmentOf('hashes.fileAfter', 'zz', opening.value)).toBeNull();
    expect(await leafHashOf(fixture.signing.leaf)).toBe(fixture.signing.leafHash);
  });

  it('folds inclusion paths to the RFC 9162 root for every leaf of trees of 1 to 33 leaves', async () => {
    const leaves: Uint8Array[] = [];
    for (let i = 0; i < 33; i++) leaves.push(await sha256(Uint8Array.of(0, i)));
    for (let size = 1; size <= 33; size++) {
      const tree = leaves.slice(0, size);
      const root = toHex(await mth(tree));
      for (let m = 0; m < size; m++) {
        const p = await path(m, tree);
        const got = await rootFromPath(tree[m]!, m, size, p);
        expect([size, m, got && toHex(got)]).toEqual([size, m, root]);
        // The same path for another index, or one node more, proves nothing.
        if (size > 1) {
          const other = await rootFromPath(tree[m]!, (m + 1) % size, size, p);
          expect(other && toHex(other)).not.toBe(root);
        }
        expect(await rootFromPath(tree[m]!, m, size, [...p, leaves[0]!])).toBeNull();
      }
    }
    expect(await rootFromPath(leaves[0]!, 3, 3, [])).toBeNull();
    expect(await rootFromPath(leaves[0]!, -1, 3, [])).toBeNull();
  });

  it('reads DER ECDSA signatures and encodes tree heads as RFC 9162 TreeHeadDataV2', async () => {
    // r with a leading zero byte (33 bytes), s short (31 bytes).
    const r = new Uint8Array(33).fill(0x80);
    r[0] = 0;
    const s = new Uint8Array(31).fill(0x11);
    const der = Uint8Array.of(0x30, 2 + 33 + 2 + 31, 0x02, 33, ...r, 0x02, 31, ...s);
    const raw = derToRawSignature(der)!;
    expect(raw.length).toBe(64);
    expect(toHex(raw.subarray(0, 32))).toBe('80'.repeat(32));
    expect(toHex(raw.subarray(32))).toBe(`00${'11'.repeat(31)}`);
    expect(derToRawSignature(der.subarray(0, der.length - 1))).toBeNull();
    expect(derToRawSignature(Uint8Array.of(0x31, 0))).toBeNull();

    const bytes = encodeTreeHead({ timestamp: 1, treeSize: 2, rootHash: 'ab'.repeat(32) });
    expect(bytes.length).toBe(51);
    expect(toHex(bytes)).toBe(`${'0000000000000001'}${'0000000000000002'}20${'ab'.repeat(32)}0000`);
    expect(fromHex('AB')).toBeNull();
    expect(await verifyTreeHeadSignature(fixture.treeHead, fixture.logPublicKey)).toBe(true);
    expect(await verifyTreeHeadSignature(fixture.treeHead, 'not base64!')).toBe(false);
  });
});
