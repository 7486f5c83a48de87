/**
 * The mutated-PDF suite: at least 3,000 mutants (byte flips, truncation, insertion, deletion, numbers in
 * the cross-reference data, ByteRange and stream lengths changed, objects duplicated, keywords swapped,
 * splices between files) of the third-party corpus and of hand-made signed files, with a fixed seed, run
 * through the verifier in process. Each must end in a report or a PdfError, in under 10 s, and no
 * signature may be valid once the bytes it signs have changed.
 *
 * PDF_MUTANTS raises the count (never below 3,000), PDF_MUTANT_SEED replays another run,
 * PDF_MUTANT_BUDGET_MS bounds the processor time of the whole run (3 minutes by default). Processor time,
 * not wall time: on a shared machine the wall clock measures the neighbours; alone on two cores the two
 * are about the same, as the mutants run one after another.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseCms, type RevocationStatus } from '@openseal/pki';
import { beforeAll, describe, expect, it } from 'vitest';
import { PdfError } from '../errors';
import { corpusFiles } from '../test-env';
import { verifyPdf, type PdfVerifyReport } from './index';
import { contentsOf, coveredDigest, mutate, OPERATORS, prng, type MutationSource } from './mutants';
import { createTestPki, signTestPdf, TestPdf, timestampTestPdf } from './test-pdf';

const MUTANTS = Math.max(3_000, Number(process.env.PDF_MUTANTS ?? 3_000));
const SEED = Number(process.env.PDF_MUTANT_SEED ?? 0x0d1f5eed);
const BUDGET_MS = Number(process.env.PDF_MUTANT_BUDGET_MS ?? 180_000);
/** The verifier's own bound, well under the 10 s a mutant may take at most. */
const LIMITS = { deadlineMs: 5_000, maxStreamBytes: 32 * 1024 * 1024, maxDepth: 64 };
const HANG_MS = 10_000;

/**
 * Share of the mutants each source gets, relative to 1. Hand-made files weigh more: their signer is
 * trusted, so their signatures are valid whatever the verdict rules, and the "no valid once changed"
 * check bites on them. Files whose verification is slow (many signatures with long-term validation data,
 * several megabytes) weigh less, so the suite stays inside its budget.
 */
const WEIGHTS: Record<string, number> = {
  'hand-made certified and approved': 6,
  'hand-made approval': 6,
  'hand-made timestamped': 4,
  'dss__pades-5-signatures-and-1-document-timestamp.pdf': 0.25,
  'dss__doc-firmado-LT.pdf': 0.4,
  'dss__dss-2058_dss-2058-LTA-test.pdf': 0.4,
  'dss__dss-2554_certified-no-change-permitted.pdf': 0.5,
  'pdfjs__xfa_filled_imm1344e.pdf': 0.25,
  'pdfjs__freeculture.pdf': 0.25,
};

interface Original {
  source: MutationSource;
  report: PdfVerifyReport | null;
  /** Digest of the signed bytes of each signature the verifier found valid in the unmutated file. */
  validSigned: Array<{ byteRange: number[]; digest: string }>;
}

const originals = new Map<string, Original>();
/** Digests of the signed bytes of every signature in every source: a valid signature must cover one. */
const signedDigests = new Set<string>();
const trust = { anchors: [] as Uint8Array[] };
// Revocation is not what this suite tests: every certificate reads as good, so trusted signers can be valid.
const checkRevocation = async (): Promise<RevocationStatus> => ({ status: 'good', source: 'online' });

async function handMadeSources(): Promise<MutationSource[]> {
  const pki = await createTestPki('Mutant Signer');
  trust.anchors.push(pki.root.certificate);
  const certified = new TestPdf({ pages: 2 });
  certified.addTextField(0, 'name', 'x');
  certified.commit();
  await signTestPdf(certified, { identity: pki.signer, fieldName: 'A', docMdp: 2 });
  await signTestPdf(certified, { identity: pki.signer, fieldName: 'B' });
  const approval = new TestPdf({ pages: 1 });
  approval.commit();
  await signTestPdf(approval, {
    identity: pki.signer,
    fieldName: 'Approval',
    subFilter: 'adbe.pkcs7.detached',
  });
  const stamped = new TestPdf({ pages: 1 });
  stamped.commit();
  await signTestPdf(stamped, { identity: pki.signer, fieldName: 'Signed' });
  await timestampTestPdf(stamped, { tsa: pki.tsa, fieldName: 'Stamp' });
  return [
    { name: 'hand-made certified and approved', bytes: certified.bytes },
    { name: 'hand-made approval', bytes: approval.bytes },
    { name: 'hand-made timestamped', bytes: stamped.bytes },
  ];
}

async function verify(bytes: Uint8Array): Promise<PdfVerifyReport | PdfError> {
  try {
    return await verifyPdf(bytes, { trust, limits: LIMITS, checkRevocation });
  } catch (e) {
    if (e instanceof PdfError) return e;
    throw e;
  }
}

/** Which mutant comes from which source: shares by weight, shuffled by the seed. */
function plan(sources: MutationSource[]): MutationSource[] {
  const total = sources.reduce((n, s) => n + (WEIGHTS[s.name] ?? 1), 0);
  const list: MutationSource[] = [];
  for (const s of sources) {
    const count = Math.max(10, Math.round((MUTANTS * (WEIGHTS[s.name] ?? 1)) / total));
    for (let i = 0; i < count; i++) list.push(s);
  }
  const rnd = prng(SEED);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list.length >= MUTANTS ? list : [...list, ...list.slice(0, MUTANTS - list.length)];
}

beforeAll(async () => {
  const sources = await handMadeSources();
  const corpus = [...corpusFiles('signed'), ...corpusFiles('unsigned')];
  if (corpus.length === 0) console.warn('notice: corpus not found; only hand-made files are mutated');
  for (const f of corpus) sources.push({ name: basename(f), bytes: new Uint8Array(readFileSync(f)) });
  // The certificates the corpus files carry are trusted too, so their intact signatures can be valid.
  const firstPass = new Map<string, PdfVerifyReport | PdfError>();
  for (const s of sources) {
    const outcome = await verify(s.bytes);
    firstPass.set(s.name, outcome);
    if (outcome instanceof PdfError) continue;
    for (const sig of outcome.signatures) {
      const cms = contentsOf(s.bytes, sig.byteRange);
      if (!cms) continue;
      try {
        trust.anchors.push(...parseCms(cms).certificates);
      } catch {
        // a CMS that does not parse carries no certificate to trust
      }
    }
  }
  for (const s of sources) {
    const outcome = s.name.startsWith('hand-made') ? firstPass.get(s.name)! : await verify(s.bytes);
    const report = outcome instanceof PdfError ? null : outcome;
    const validSigned: Original['validSigned'] = [];
    for (const sig of report?.signatures ?? []) {
      const digest = coveredDigest(s.bytes, sig.byteRange);
      if (!digest) continue;
      signedDigests.add(digest);
      if (sig.verdict === 'valid') validSigned.push({ byteRange: sig.byteRange, digest });
    }
    originals.set(s.name, { source: s, report, validSigned });
  }
}, 120_000);

describe('verifyPdf on mutated files', () => {
  it('hand-made signatures are valid before mutation, so the check below has something to break', () => {
    for (const name of ['hand-made certified and approved', 'hand-made approval', 'hand-made timestamped'])
      expect(originals.get(name)?.validSigned.length, name).toBeGreaterThan(0);
  });

  it(
    `${MUTANTS} mutants: a report or a PdfError, in time, and never valid once signed bytes changed`,
    async () => {
      const started = Date.now();
      const cpuStart = process.cpuUsage();
      const cpuBySource = new Map<string, number>();
      const sources = [...originals.values()].map((o) => o.source);
      const schedule = plan(sources).slice(0, MUTANTS);
      const failures: string[] = [];
      const counts = { reports: 0, errors: 0, signedBytesChanged: 0, validSurvivors: 0 };
      const byOperator = new Map<string, number>();
      let slowest = { ms: 0, what: '' };

      async function run(index: number) {
        const source = schedule[index]!;
        const seed = SEED + index;
        const other = sources[(index * 7 + 3) % sources.length]!;
        const m = mutate(source, other.name === source.name ? sources[0]! : other, seed);
        const what = `${m.source} #${seed} ${m.operator} (${m.note})`;
        byOperator.set(m.operator, (byOperator.get(m.operator) ?? 0) + 1);
        const t0 = Date.now();
        let outcome: PdfVerifyReport | PdfError;
        try {
          outcome = await Promise.race([
            verify(m.bytes),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error(`no answer after ${HANG_MS} ms`)), HANG_MS).unref(),
            ),
          ]);
        } catch (e) {
          failures.push(`${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          return;
        }
        const ms = Date.now() - t0;
        if (ms > slowest.ms) slowest = { ms, what };
        if (ms >= HANG_MS) failures.push(`${what}: took ${ms} ms`);
        if (outcome instanceof PdfError) {
          counts.errors++;
          return;
        }
        counts.reports++;
        // A valid signature covers bytes some original signature signed, unchanged.
        for (const s of outcome.signatures) {
          if (s.verdict !== 'valid') continue;
          const digest = coveredDigest(m.bytes, s.byteRange);
          if (!digest || !signedDigests.has(digest))
            failures.push(`${what}: signature ${s.field} is valid over bytes no original signed`);
        }
        if (outcome.verdict === 'valid')
          for (const s of outcome.signatures) {
            const digest = coveredDigest(m.bytes, s.byteRange);
            if (!digest || !signedDigests.has(digest))
              failures.push(
                `${what}: the document is valid with signature ${s.field} over bytes no original signed`,
              );
          }
        // Computed from the original's byte ranges: a signature whose signed bytes changed is not valid.
        for (const o of originals.get(m.source)!.validSigned) {
          if (coveredDigest(m.bytes, o.byteRange) === o.digest) continue;
          counts.signedBytesChanged++;
          const same = outcome.signatures.find((s) => s.byteRange.join() === o.byteRange.join());
          if (same && same.verdict === 'valid') {
            counts.validSurvivors++;
            failures.push(`${what}: signature ${same.field} stayed valid after its signed bytes changed`);
          }
        }
      }

      for (let i = 0; i < schedule.length; i++) {
        const c0 = process.cpuUsage();
        await run(i);
        const c = process.cpuUsage(c0);
        const name = schedule[i]!.name;
        cpuBySource.set(name, (cpuBySource.get(name) ?? 0) + (c.user + c.system) / 1000);
      }
      const elapsed = Date.now() - started;
      const cpu = process.cpuUsage(cpuStart);
      const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
      const costly = [...cpuBySource]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, v]) => `${k} ${Math.round(v)} ms`);
      console.info(
        `PDF mutants: ${schedule.length} from ${sources.length} files in ${elapsed} ms wall, ${cpuMs} ms processor (seed ${SEED}); ` +
          `${counts.reports} reports, ${counts.errors} PdfErrors; ${counts.signedBytesChanged} changed the signed bytes of a valid signature; ` +
          `slowest ${slowest.ms} ms (${slowest.what}); by operator ${JSON.stringify(Object.fromEntries(byOperator))}; ` +
          `costliest sources: ${costly.join(', ')}`,
      );
      expect(failures.slice(0, 20)).toEqual([]);
      expect(schedule.length).toBeGreaterThanOrEqual(3_000);
      expect(new Set(byOperator.keys()).size).toBe(OPERATORS.length);
      // The check must have had work to do: many mutants hit signed bytes of valid signatures.
      expect(counts.signedBytesChanged).toBeGreaterThan(schedule.length / 10);
      expect(cpuMs, `the run stays inside PDF_MUTANT_BUDGET_MS (${BUDGET_MS} ms)`).toBeLessThan(BUDGET_MS);
    },
    // Wall time may run far over the processor budget on a loaded machine; only a real hang should time out.
    BUDGET_MS * 4 + 60_000,
  );
});
