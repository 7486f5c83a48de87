import { unzipSync } from 'fflate';
import { OfdError } from './errors';
import type { XmlLimits } from './xml';

/** Bounds on what a package may hold, so a crafted zip cannot exhaust memory. */
export interface OfdLimits {
  /** Entries in the zip (default 10 000). */
  maxEntries?: number;
  /** Sum of the uncompressed sizes (default 256 MB). */
  maxTotalBytes?: number;
  /** One uncompressed entry (default 64 MB). */
  maxEntryBytes?: number;
  /** Nesting depth and node count of the XML parts (see `XmlLimits`). */
  xml?: XmlLimits;
}

const DEFAULTS: Required<Omit<OfdLimits, 'xml'>> = {
  maxEntries: 10_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
};

/**
 * The files of a package by normalised path, with path resolution as OFD uses it. Opening reads only the
 * zip's directory; an entry is inflated when first asked for and kept, so checking a structure inflates
 * the XML parts and not the images and fonts a page drawing needs.
 */
export class ZipPackage {
  /** Normalised path → the entry's name in the zip. */
  private readonly names = new Map<string, string>();
  private readonly folded = new Map<string, string>();
  private readonly inflated = new Map<string, Uint8Array>();

  private constructor(
    private readonly bytes: Uint8Array,
    entries: string[],
  ) {
    for (const name of entries) {
      if (name.endsWith('/')) continue;
      const path = normalise(name);
      this.names.set(path, name);
      this.folded.set(path.toLowerCase(), path);
    }
  }

  static open(bytes: Uint8Array, limits: OfdLimits = {}): ZipPackage {
    const max = { ...DEFAULTS, ...limits };
    if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
      throw new OfdError('notZip', 'not a zip package');
    const entries: string[] = [];
    let total = 0;
    try {
      // The directory only: every entry is declined, so nothing is inflated yet. The sizes it declares
      // bound what may be inflated later (an entry is inflated into a buffer of its declared size).
      unzipSync(bytes, {
        filter(file) {
          entries.push(file.name);
          total += file.originalSize;
          if (entries.length > max.maxEntries)
            throw new OfdError('tooLarge', `more than ${max.maxEntries} entries`);
          if (file.originalSize > max.maxEntryBytes)
            throw new OfdError('tooLarge', `${file.name} is larger than ${max.maxEntryBytes} bytes`);
          if (total > max.maxTotalBytes)
            throw new OfdError('tooLarge', `more than ${max.maxTotalBytes} bytes uncompressed`);
          return false;
        },
      });
    } catch (err) {
      if (err instanceof OfdError) throw err;
      throw new OfdError('notZip', `unreadable zip: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new ZipPackage(bytes, entries);
  }

  private resolve(path: string): string | undefined {
    const p = normalise(path);
    return this.names.has(p) ? p : this.folded.get(p.toLowerCase());
  }

  /**
   * A part by its path from the package root (a leading slash is allowed; case-insensitive as a
   * fallback); undefined when absent. An entry that does not inflate throws `OfdError('notZip')`.
   */
  get(path: string): Uint8Array | undefined {
    const p = this.resolve(path);
    if (p === undefined) return undefined;
    const kept = this.inflated.get(p);
    if (kept) return kept;
    const name = this.names.get(p)!;
    let bytes: Uint8Array | undefined;
    try {
      bytes = unzipSync(this.bytes, { filter: (f) => f.name === name })[name];
    } catch (err) {
      throw new OfdError(
        'notZip',
        `unreadable entry ${name}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!bytes) throw new OfdError('notZip', `unreadable entry ${name}`);
    this.inflated.set(p, bytes);
    return bytes;
  }

  /** Like `get`, but an entry that does not inflate counts as absent: for what a page can do without. */
  tryGet(path: string): Uint8Array | undefined {
    try {
      return this.get(path);
    } catch {
      return undefined;
    }
  }

  has(path: string): boolean {
    return this.resolve(path) !== undefined;
  }

  get size(): number {
    return this.names.size;
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
