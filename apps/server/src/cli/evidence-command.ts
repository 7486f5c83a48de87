/**
 * `openseal evidence verify PROOF.json [--key KEY.pem|SPKI-base64]… [--json]` — checks a proof bundle of
 * the evidence log offline. Exit 0 every check passed, 1 a check failed, 2 unusable input.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checkProofBundle, parseProofBundle, spkiOf, toBase64, type ProofBundle } from '@openseal/evidence';
import type { Io } from './io';

export const EVIDENCE_HELP = `openseal evidence verify PROOF.json [--key KEY.pem|SPKI-base64]... [--json]

  Checks a proof bundle without the server: the leaf hash, the openings, the inclusion path to the
  signed root, the tree head signature, and the log key. Leaves commit to every field but their kind by
  salted hashes; a bundle given to a party of the act (chain record, notary record, a verification's
  evidence) carries openings, and each opening must recompute its commitment in the leaf. The fields
  opened are listed. A bundle from GET /v1/evidence/proof/{index} has none and proves inclusion only.

  --key KEY      the log public key to trust: a PEM file, or SPKI in base64 (GET /v1/evidence/key);
                 repeatable. Without it the bundle's own key is used and reported as not pinned.
  --json         print one JSON object { ok, leafIndex, treeSize, kind, opened, checks: [{ name, ok, detail }] }
                 (opened: field → value of every opening that matched)

Exit status: 0 every check passed, 1 a check failed, 2 unusable input.`;

function fail(io: Io, reason: string): number {
  io.err(`openseal evidence: ${reason.split('\n')[0]}\n`);
  return 2;
}

/** A key given as a file (PEM, or base64 text) or inline as SPKI base64; null when it is neither. */
function readKey(value: string): string | null {
  const text = existsSync(value) ? readFileSync(value, 'utf8') : value;
  const spki = spkiOf(text.trim());
  return spki ? toBase64(spki) : null;
}

export async function evidenceCommand(argv: string[], io: Io): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        key: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return fail(io, (err as Error).message);
  }
  const [sub, file, ...extra] = args.positionals;
  if (args.values.help || sub === 'help') return (io.out(`${EVIDENCE_HELP}\n`), 0);
  if (sub !== 'verify')
    return fail(io, `unknown subcommand ${sub ?? '(none)'} (try: openseal evidence --help)`);
  if (!file || extra.length) return fail(io, 'give exactly one PROOF.json');

  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return fail(io, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(io, `${file} is not JSON: ${(err as Error).message}`);
  }
  // The API answers {code, message, data}; accept a saved answer as well as the bare bundle.
  if (parsed && typeof parsed === 'object' && 'data' in parsed && 'code' in parsed) parsed = parsed.data;
  let bundle;
  try {
    bundle = parseProofBundle(parsed);
  } catch (err) {
    return fail(io, `${file}: ${(err as Error).message}`);
  }

  let trustedKeys: string[] | undefined;
  if (args.values.key) {
    trustedKeys = [];
    for (const k of args.values.key) {
      const key = readKey(k);
      if (!key)
        return fail(io, `--key ${k.length > 40 ? `${k.slice(0, 40)}…` : k} is not a P-256 public key`);
      trustedKeys.push(key);
    }
  }

  const report = checkProofBundle(bundle, trustedKeys ? { trustedKeys } : {});
  const opened = report.opened ?? {};
  if (args.values.json) {
    const kind = bundle.version === 1 ? bundle.entry.kind : (bundle.leaf?.kind ?? null);
    io.out(
      `${JSON.stringify({ ok: report.ok, leafIndex: bundle.leafIndex, treeSize: bundle.treeHead.treeSize, kind, opened, checks: report.checks })}\n`,
    );
  } else {
    for (const c of report.checks)
      io.out(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}${c.detail ? `: ${c.detail}` : ''}\n`);
    for (const [field, value] of Object.entries(opened).sort(([a], [b]) => a.localeCompare(b)))
      io.out(`      ${field} = ${JSON.stringify(value)}\n`);
    io.out(
      report.ok
        ? `verified: leaf ${bundle.leafIndex} (${describe(bundle, opened)}) is in the evidence log\n`
        : 'NOT verified\n',
    );
  }
  return report.ok ? 0 : 1;
}

/** What the leaf is, as far as the bundle shows it: its kind, and its subject when readable. */
function describe(bundle: ProofBundle, opened: Record<string, unknown>): string {
  if (bundle.version === 1) return `${bundle.entry.kind} ${bundle.entry.subject}`;
  if (!bundle.leaf) return 'leaf withheld, hash only';
  if (bundle.leaf.v === 1) return `${bundle.leaf.kind} ${bundle.leaf.subject}`;
  return typeof opened.subject === 'string' ? `${bundle.leaf.kind} ${opened.subject}` : bundle.leaf.kind;
}
