/** Minimal client of the server's `{ code, message, data }` envelope, for setting up benches. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export class ApiError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`${path}: HTTP ${status}, code ${code ?? '?'}: ${message}`);
  }
}

export async function callApi<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<T> {
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let env: Envelope<T>;
  try {
    env = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new ApiError(path, res.status, undefined, `not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok || env.code !== 0) throw new ApiError(path, res.status, env.code, env.message);
  return env.data;
}
