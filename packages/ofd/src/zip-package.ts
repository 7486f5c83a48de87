import { unzipSync } from 'fflate';
import { OfdError } from './errors';

/** Bounds on what a package may hold, so a crafted zip cannot exhaust memory. */
export interface OfdLimits {
  /** Entries in the zip (default 10 000). */
  maxEntries?: number;
  /** Sum of the uncompressed sizes (default 256 MB). */
  maxTotalBytes?: number;
  /** One uncompressed entry (default 64 MB). */
  maxEntryBytes?: number;
}

const DEFAULTS: Required<OfdLimits> = {
  maxEntries: 10_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
};

/** The files of a package by normalised path (no leading slash), with path resolution as OFD uses it. */
export class ZipPackage {
  private readonly files: Map<string, Uint8Array>;
  private readonly folded = new Map<string, string>();

  private constructor(files: Record<string, Uint8Array>) {
    this.files = new Map();
    for (const [name, bytes] of Object.entries(files)) {
      if (name.endsWith('/')) continue;
      const path = normalise(name);
      this.files.set(path, bytes);
      this.folded.set(path.toLowerCase(), path);
    }
  }

  static open(bytes: Uint8Array, limits: OfdLimits = {}): ZipPackage {
    const max = { ...DEFAULTS, ...limits };
    if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
      throw new OfdError('notZip', 'not a zip package');
    let entries = 0;
    let total = 0;
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, {
        filter(file) {
          entries += 1;
          total += file.originalSize;
          if (entries > max.maxEntries) throw new OfdError('tooLarge', `more than ${max.maxEntries} entries`);
          if (file.originalSize > max.maxEntryBytes)
            throw new OfdError('tooLarge', `${file.name} is larger than ${max.maxEntryBytes} bytes`);
          if (total > max.maxTotalBytes)
            throw new OfdError('tooLarge', `more than ${max.maxTotalBytes} bytes uncompressed`);
          return true;
        },
      });
    } catch (err) {
      if (err instanceof OfdError) throw err;
      throw new OfdError('notZip', `unreadable zip: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new ZipPackage(files);
  }

  /** A part by its path from the package root (a leading slash is allowed); case-insensitive as a fallback. */
  get(path: string): Uint8Array | undefined {
    const p = normalise(path);
    return this.files.get(p) ?? this.files.get(this.folded.get(p.toLowerCase()) ?? '');
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  get size(): number {
    return this.files.size;
  }
}

/** `a/./b/../c` → `a/c`; backslashes as slashes; no leading slash. */
export function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/** The folder of a part's path ('' for the root). */
export function dirOf(path: string): string {
  const p = normalise(path);
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

/**
 * A location as OFD writes it: absolute from the package root when it starts with '/', otherwise relative
 * to `base` (the folder of the file that names it, or a resource file's BaseLoc folder).
 */
export function resolveLoc(base: string, loc: string): string {
  const l = loc.trim();
  if (l.startsWith('/') || l.startsWith('\\')) return normalise(l);
  return normalise(base ? `${base}/${l}` : l);
}
