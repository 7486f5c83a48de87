/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, strings and numbers as
 * JSON.stringify writes them. For the values accepted here this is the JSON Canonicalization Scheme
 * (RFC 8785), so any JCS implementation reproduces the bytes.
 */

export class CanonicalJsonError extends TypeError {
  override name = 'CanonicalJsonError';
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Refuses what has no single JSON spelling (NaN, Infinity, -0 is written as 0 like JSON does, bigint,
 * Date, Map, class instances, sparse arrays); an object property that is undefined is left out, as in JSON.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > 32) throw new CanonicalJsonError('nested too deep');
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError('numbers must be finite');
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        const parts: string[] = [];
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || value[i] === undefined)
            throw new CanonicalJsonError('arrays must not have holes');
          parts.push(canonicalJson(value[i], depth + 1));
        }
        return `[${parts.join(',')}]`;
      }
      if (!isPlainObject(value)) throw new CanonicalJsonError('only plain objects are allowed');
      const keys = Object.keys(value).sort();
      const parts: string[] = [];
      for (const k of keys) {
        const v = value[k];
        if (v === undefined) continue;
        parts.push(`${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new CanonicalJsonError(`${typeof value} has no JSON form`);
  }
}
