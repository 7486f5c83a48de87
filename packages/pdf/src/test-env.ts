// Test-only helpers: where the third-party corpus is, which referee tools are installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The third-party corpus sits beside the repository checkout; it is absent on a fresh clone. */
export const corpusDir = fileURLToPath(new URL('../../../../shared/corpus', import.meta.url));
export const hasCorpus = existsSync(corpusDir);

export function corpusFiles(folder: 'signed' | 'unsigned'): string[] {
  const dir = `${corpusDir}/${folder}`;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.pdf'))
    .sort()
    .map((f) => `${dir}/${f}`);
}

/** MANIFEST.tsv rows keyed by file name. */
export function corpusManifest(folder: 'signed' | 'unsigned'): Map<string, Record<string, string>> {
  const path = `${corpusDir}/${folder}/MANIFEST.tsv`;
  const out = new Map<string, Record<string, string>>();
  if (!existsSync(path)) return out;
  const [head, ...rows] = readFileSync(path, 'utf8').trim().split('\n');
  const cols = head!.split('\t');
  for (const row of rows) {
    const cells = row.split('\t');
    const rec: Record<string, string> = {};
    cols.forEach((c, i) => (rec[c] = cells[i] ?? ''));
    out.set(rec.filename!, rec);
  }
  return out;
}

const toolCache = new Map<string, boolean>();
export function has(tool: string): boolean {
  let ok = toolCache.get(tool);
  if (ok === undefined) {
    ok = spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
    toolCache.set(tool, ok);
  }
  return ok;
}

export function run(cmd: string, args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** qpdf's page count; qpdf exits 3 on files it had to repair, which still gives the count. */
export function qpdfPages(path: string): number {
  return Number(run('qpdf', ['--show-npages', path]).stdout.trim());
}
