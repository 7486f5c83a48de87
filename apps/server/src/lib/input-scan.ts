/**
 * Finds text a request must not carry: NUL characters (PostgreSQL refuses them in text and jsonb), lone
 * UTF-16 surrogates (they have no UTF-8 form, so they cannot be stored or sent on), and nesting deeper
 * than any contract of ours needs. Pure; the input-hygiene plugin runs it over every request.
 */

export type InputProblem = 'nul' | 'utf8' | 'depth';

export interface InputFinding {
  problem: InputProblem;
  /** JSON-pointer-like path of the offending value ('' for the value itself). */
  path: string;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Native in Node 20 (ES2024), a thousand times faster than the pattern on a megabyte of text. */
const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as string & { isWellFormed(): boolean }).isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);

export function textProblem(s: string): Exclude<InputProblem, 'depth'> | null {
  if (s.includes('\u0000')) return 'nul';
  if (!isWellFormed(s)) return 'utf8';
  return null;
}

/**
 * Walks a parsed value (strings, arrays, plain objects, keys included) without recursion, so that a
 * body nested a million levels deep costs a loop, not the stack. Stops at the first finding.
 */
export function scanInput(value: unknown, maxDepth: number): InputFinding | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { problem, path: item.path };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (item.depth >= maxDepth) return { problem: 'depth', path: item.path };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], path: `${item.path}/${i}`, depth: item.depth + 1 });
      continue;
    }
    // Buffers and other binary bodies are not text.
    if (ArrayBuffer.isView(v)) continue;
    for (const key of Object.keys(v)) {
      const problem = textProblem(key);
      if (problem)
        return {
          problem,
          path: `${item.path}/${key.replace(/[\uD800-\uDFFF]/g, '?').replaceAll('\u0000', '?')}`,
        };
      stack.push({
        value: (v as Record<string, unknown>)[key],
        path: `${item.path}/${key}`,
        depth: item.depth + 1,
      });
    }
  }
  return null;
}

/**
 * Checks the percent escapes of a raw query string: each `%` must start two hex digits, and the bytes
 * they spell must be UTF-8. A query parser keeps such escapes as literal text, which then reaches
 * lookups and storage as nonsense; refusing them is clearer.
 */
export function queryEscapesOk(rawQuery: string): boolean {
  if (!rawQuery.includes('%')) return true;
  try {
    decodeURIComponent(rawQuery);
    return true;
  } catch {
    return false;
  }
}
