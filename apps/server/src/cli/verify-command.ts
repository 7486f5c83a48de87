/**
 * `openseal verify FILE [--json] [--trust CERT.pem]…` — every signature in every revision of a PDF, or every
 * signature of an OFD, with one verdict. Exit 0 all signatures valid, 1 any invalid or none, 2 unusable
 * input, 3 none invalid but at least one indeterminate: intact, its signer not confirmed.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Io } from './io';
import type { LocalPlatform } from '../local-platform';

export const VERIFY_HELP = `openseal verify FILE [--json] [--trust CERT.pem]... [--password PW] [--live]

FILE is a PDF, or an OFD (told apart by content). An OFD's signatures are checked for the parts they
cover, their signed value and the signer's key (GB/T 38540, SM2 with SM3), and the signer's certificate
must chain to a trust anchor: valid, invalid, or indeterminate (intact, signer not confirmed).

  --json           print one JSON object: { verdict, signatures: [{ field, signer, integrity,
                   coversWholeDocument, chain, timestamp, modifiedAfter, ... }] }
  --trust PEM      also trust these anchors (repeatable; TRUST_LIST adds a PEM bundle too)
  --password PW    password of an encrypted PDF, to read its names (signatures verify without it)
  --live           ask the platform's database for each certificate's revocation state now, rather
                   than its revocation list in the data directory

Trust anchors and revocation: the platform's, from the local data directory (DATA_DIR) without opening
the database: its root, the operator-added anchors and its CA's revocation list, which the platform keeps
in pki/verify-material.json (a running server rewrites it every minute; a certificate status change
removes it until then). Without that file, or with --live, the command opens the database (DATA_DIR or
DATABASE_URL), and when a running server holds it, asks that server at PUBLIC_URL (/pki/trust-anchors),
without revocation. Plus --trust and TRUST_LIST.

Exit codes: 0 every signature valid; 1 a signature invalid, or none; 2 unusable input;
3 none invalid but at least one indeterminate (intact, its signer not confirmed).`;

export async function verifyCommand(argv: string[], io: Io): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        trust: { type: 'string', multiple: true },
        password: { type: 'string' },
        live: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return fail(io, (err as Error).message);
  }
  if (args.values.help) return (io.out(`${VERIFY_HELP}\n`), 0);
  const [file, ...extra] = args.positionals;
  if (!file || extra.length) return fail(io, 'give exactly one FILE');
  if (!existsSync(file)) return fail(io, `no such file: ${file}`);
  const ofd = isZip(file);

  const { fromPem } = await import('@openseal/pki');
  const { openFileSource, verifyPdf, summarizeForCli, PdfError } = await import('@openseal/pdf');
  const { loadConfig } = await import('../config');

  const anchors: Uint8Array[] = [];
  const intermediates: Uint8Array[] = [];
  try {
    for (const pem of args.values.trust ?? []) anchors.push(...fromPem(readFileSync(pem, 'utf8')));
  } catch (err) {
    return fail(io, `cannot read trust anchors: ${(err as Error).message}`);
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    return fail(io, (err as Error).message);
  }
  if (config.pki.trustList) anchors.push(...fromPem(readFileSync(config.pki.trustList, 'utf8')));

  // The platform's own anchors and revocation data: the data directory's copy, else its database (which
  // writes that copy for the next time), else the running server's anchors.
  const crls: Uint8Array[] = [];
  let platform: LocalPlatform | undefined;
  let checkRevocation;
  const { readVerifyMaterial } = await import('../modules/pki/verify-material');
  const material = args.values.live ? null : readVerifyMaterial(config.dataDir);
  if (material) {
    anchors.push(...material.anchors);
    intermediates.push(...material.intermediates);
    crls.push(...material.crls);
  } else if (config.databaseUrl || existsSync(join(config.dataDir, 'pglite'))) {
    const { openLocalPlatform } = await import('../local-platform');
    try {
      platform = await openLocalPlatform();
      const t = await platform.pki.trustStore();
      anchors.push(...t.anchors);
      intermediates.push(...(t.intermediates ?? []));
      checkRevocation = platform.pki.checkRevocation;
    } catch {
      // A server holds the directory: ask it instead, below.
      platform = undefined;
    }
  }
  if (!material && !platform) {
    // The running platform's anchors (root, TRUST_LIST, operator-added), else at least its root.
    const bundle = await fetchBytes(`${config.publicUrl}/pki/trust-anchors`);
    let served: Uint8Array[] = [];
    try {
      served = bundle ? fromPem(new TextDecoder().decode(bundle)) : [];
    } catch {
      // Not a PEM bundle (another server at that address): fall back to the root below.
    }
    const root = served.length ? undefined : await fetchBytes(`${config.publicUrl}/pki/ca/root.cer`);
    anchors.push(...served, ...(root ? [root] : []));
    const issuing = ofd ? await fetchBytes(`${config.publicUrl}/pki/ca/issuing.cer`) : undefined;
    if (issuing) intermediates.push(issuing);
  }
  if (ofd) {
    try {
      return await verifyOfdFile(
        file,
        args.values.json === true,
        { trustAnchors: anchors, intermediates },
        io,
      );
    } finally {
      if (platform) await platform.close();
    }
  }

  const source = openFileSource(file);
  try {
    const report = await verifyPdf(source, {
      trust: { anchors, intermediates },
      ...(crls.length ? { revocation: { crls } } : {}),
      checkRevocation,
      ...(args.values.password ? { password: args.values.password } : {}),
    });
    if (args.values.json) {
      io.out(`${JSON.stringify({ ...summarizeForCli(report), file, warnings: report.warnings })}\n`);
    } else {
      io.out(`${file}: ${report.verdict}, ${report.signatures.length} signature(s)\n`);
      report.signatures.forEach((s, i) => {
        io.out(`  #${i + 1} ${s.field} (${s.kind}, ${s.subFilter}): ${s.verdict}\n`);
        io.out(`     signer ${s.signer ?? '?'}; integrity ${s.integrity}; chain ${s.chain}; `);
        io.out(
          `covers whole document ${s.coversWholeDocument ? 'yes' : 'no'}; modified after ${s.modifiedAfter}\n`,
        );
        if (s.timestamp)
          io.out(`     timestamp ${s.timestamp.time} (${s.timestamp.valid ? 'valid' : 'invalid'})\n`);
        for (const r of s.reasons) io.out(`     - ${r}\n`);
      });
      for (const w of report.warnings) io.out(`  note: ${w}\n`);
    }
    return exitCodeOf(report.verdict);
  } catch (err) {
    if (err instanceof PdfError) return fail(io, `unusable PDF: ${err.message}`);
    throw err;
  } finally {
    source.close();
    if (platform) await platform.close();
  }
}

/** One exit code per document verdict, the same for a PDF and an OFD. */
function exitCodeOf(verdict: string): number {
  return verdict === 'valid' ? 0 : verdict === 'indeterminate' ? 3 : 1;
}

/** An OFD is a zip package; a PDF is not. */
function isZip(file: string): boolean {
  const head = Buffer.alloc(4);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  return head.equals(Buffer.from('PK\x03\x04', 'latin1'));
}

async function verifyOfdFile(
  file: string,
  json: boolean,
  trust: { trustAnchors: Uint8Array[]; intermediates: Uint8Array[] },
  io: Io,
): Promise<number> {
  const { readOfd, OfdError } = await import('@openseal/ofd');
  const { ofdReasonText } = await import('@openseal/core');
  let checks;
  try {
    checks = await readOfd(readFileSync(file)).verifySignatures(trust);
  } catch (err) {
    if (err instanceof OfdError) return fail(io, `unusable OFD: ${err.message}`);
    throw err;
  }
  const verdict =
    checks.length === 0
      ? 'no-signatures'
      : checks.some((c) => c.verdict === 'invalid')
        ? 'invalid'
        : checks.every((c) => c.verdict === 'valid')
          ? 'valid'
          : 'indeterminate';
  if (json) {
    io.out(`${JSON.stringify({ verdict, format: 'ofd', file, signatures: checks })}\n`);
  } else {
    io.out(`${file}: ${verdict}, ${checks.length} signature(s) (OFD)\n`);
    checks.forEach((c, i) => {
      io.out(`  #${i + 1} ${c.type} ${c.id} (${c.format}): ${c.verdict}\n`);
      io.out(`     seal ${c.sealName ?? '?'}; signer ${c.signer?.subject ?? '?'}`);
      io.out(
        `${c.signer ? ` (issuer ${c.signer.issuer})` : ''}; signed ${c.signedAt ?? '?'}; chain ${c.chain}\n`,
      );
      const files = (status: string) =>
        c.references
          .filter((r) => r.status === status)
          .map((r) => r.file)
          .join(', ');
      for (const p of c.problems)
        io.out(
          `     - ${ofdReasonText(p, 'en', { files: files(p === 'referenceMissing' ? 'missing' : 'changed'), issuer: c.signer?.issuer ?? '?' })}\n`,
        );
      for (const r of c.references.filter((r) => r.status !== 'ok'))
        io.out(`     - ${r.file}: ${r.status}\n`);
    });
  }
  return exitCodeOf(verdict);
}

async function fetchBytes(url: string): Promise<Uint8Array | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.ok ? new Uint8Array(await res.arrayBuffer()) : undefined;
  } catch {
    return undefined;
  }
}

function fail(io: Io, reason: string): number {
  io.err(`openseal verify: ${reason.split('\n')[0]}\n`);
  return 2;
}
