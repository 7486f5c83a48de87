/**
 * The parts of the API fuzz test that know nothing of the app: a seeded generator, the operations of an
 * OpenAPI document, values drawn from their JSON schemas, and the classes of bad input made from them.
 * Every request is a plain description (method, url, headers, payload) so a failure can be replayed.
 */

/** A small deterministic generator (mulberry32), so that a failing request can be replayed by seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rnd = () => number;
const pick = <T>(rnd: Rnd, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
const int = (rnd: Rnd, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface Operation {
  /** `GET /v1/x/{id}` */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: Array<{ name: string; schema: JsonSchema }>;
  query: Array<{ name: string; required: boolean; schema: JsonSchema }>;
  /** The JSON body schema, when the operation takes one. */
  body: JsonSchema | null;
  /** A POST without a JSON body: an upload or a call without input. */
  maybeMultipart: boolean;
  /** Operator console operations are called with an operator session as well. */
  operator: boolean;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const method = m.toUpperCase() as Operation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      const params = op.parameters ?? [];
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      ops.push({
        id: `${method} ${path}`,
        method,
        path,
        pathParams: params
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: p.schema ?? { type: 'string' } })),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({
            name: p.name,
            required: p.required ?? false,
            schema: p.schema ?? { type: 'string' },
          })),
        body,
        maybeMultipart: method === 'POST' && !body,
        operator: path.startsWith('/manage/'),
      });
    }
  }
  return ops;
}

/** Values that fit the patterns and names the contracts use, so generated requests get past validation. */
const PATTERN_CANDIDATES = [
  'root.cer',
  'ab12',
  '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  new Date(Date.UTC(2025, 0, 2, 3, 4, 5)).toISOString(),
  '杭州示例科技有限公司',
  'QUJD',
  'UKEY_01',
];
const NAME_HINTS: Record<string, () => string> = {
  mobile: () => '13800138000',
  legalMobile: () => '13800138001',
  applierPhone: () => '13800138002',
  uscc: () => '91330106MA27Y5XK0X',
  orgUscc: () => '91330106MA27Y5XK0X',
  idNumber: () => '110101199003071237',
  legalIdNumber: () => '110101199003071237',
  password: () => 'Passw0rd123',
  newPassword: () => 'Passw0rd456',
  oldPassword: () => 'Passw0rd123',
  code: () => '123456',
  organizeName: () => '杭州示例科技有限公司',
};

function sampleString(s: JsonSchema, rnd: Rnd, name?: string): string {
  if (s.format === 'date-time') return new Date(Date.UTC(2025, 5, 1)).toISOString();
  const hint = name ? NAME_HINTS[name] : undefined;
  const fits = (v: string) =>
    (s.minLength === undefined || v.length >= s.minLength) &&
    (s.maxLength === undefined || v.length <= s.maxLength) &&
    (!s.pattern || new RegExp(s.pattern, 'u').test(v));
  if (hint && fits(hint())) return hint();
  if (s.pattern) {
    const found = PATTERN_CANDIDATES.find(fits);
    if (found) return found;
  }
  const min = s.minLength ?? 1;
  const max = Math.max(min, Math.min(s.maxLength ?? 12, min + 12));
  const alphabet = 'abcdefghijkmnpqrstuvwxyz0123456789';
  let out = '';
  const n = int(rnd, min, max);
  for (let i = 0; i < n; i++) out += pick(rnd, [...alphabet]);
  return out;
}

function firstType(s: JsonSchema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? 'null';
  return s.type;
}

/** A value that fits the schema as far as a generator without a regex solver can make one. */
export function sample(s: JsonSchema, rnd: Rnd, name?: string, depth = 0): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return pick(rnd, s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives && alternatives.length > 0) {
    const nonNull = alternatives.filter((a) => a.type !== 'null');
    return sample(pick(rnd, nonNull.length > 0 ? nonNull : alternatives), rnd, name, depth);
  }
  if (s.allOf && s.allOf.length > 0)
    return sample(Object.assign({}, ...s.allOf) as JsonSchema, rnd, name, depth);
  switch (firstType(s) ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      const required = new Set(s.required ?? []);
      for (const [key, child] of Object.entries(s.properties ?? {})) {
        if (required.has(key) || rnd() < 0.5) out[key] = sample(child, rnd, key, depth + 1);
      }
      return out;
    }
    case 'array': {
      if (s.prefixItems) return s.prefixItems.map((p) => sample(p, rnd, name, depth + 1));
      const min = s.minItems ?? 0;
      const n = int(rnd, min, Math.max(min, Math.min(s.maxItems ?? 2, min + 2)));
      return Array.from({ length: n }, () => sample(s.items ?? {}, rnd, name, depth + 1));
    }
    case 'string':
      return sampleString(s, rnd, name);
    case 'integer':
    case 'number': {
      const lo = Math.max(s.minimum ?? 0, -1000);
      const hi = Math.min(s.maximum ?? lo + 10, lo + 10);
      return int(rnd, lo, Math.max(lo, hi));
    }
    case 'boolean':
      return rnd() < 0.5;
    case 'null':
      return null;
    default:
      return { note: sampleString({}, rnd) };
  }
}

/** A request as the fuzz test sends it. */
export interface FuzzRequest {
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** A filled-in call of an operation, before it becomes a request. */
export interface Call {
  /** Path parameters, already escaped for the URL. */
  path: Record<string, string>;
  /** Query parameters, already escaped for the URL. */
  query: Array<[string, string]>;
  body: unknown;
}

const enc = encodeURIComponent;

export function fillCall(op: Operation, rnd: Rnd): Call {
  const path: Record<string, string> = {};
  for (const p of op.pathParams) {
    // The OCSP GET form takes base64 of a request; any base64 will do for a start.
    path[p.name] = p.name === '*' ? 'MAMCAQA=' : enc(String(sample(p.schema, rnd, p.name)));
  }
  const query: Array<[string, string]> = [];
  for (const q of op.query) {
    if (q.required || rnd() < 0.6) query.push([enc(q.name), enc(String(sample(q.schema, rnd, q.name)))]);
  }
  return { path, query, body: op.body ? sample(op.body, rnd) : undefined };
}

export function urlOf(op: Operation, call: Call): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => call.path[name] ?? 'x');
  const qs = call.query.map(([k, v]) => `${k}=${v}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

export function jsonRequest(op: Operation, call: Call, payload?: string | Buffer): FuzzRequest {
  const body = payload ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  return {
    method: op.method,
    url: urlOf(op, call),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined || op.method === 'GET' ? {} : { payload: body }),
  };
}

/** Paths to the string leaves of a value (object keys and array indexes). */
export function stringSlots(
  value: unknown,
  at: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
) {
  if (typeof value === 'string') out.push(at);
  else if (Array.isArray(value)) value.forEach((v, i) => stringSlots(v, [...at, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) stringSlots(v, [...at, k], out);
  return out;
}

/** Every leaf (any type) of a value, for type swaps. */
function leafSlots(value: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  if (Array.isArray(value) && value.length > 0) value.forEach((v, i) => leafSlots(v, [...at, i], out));
  else if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0)
    for (const [k, v] of Object.entries(value)) leafSlots(v, [...at, k], out);
  else out.push(at);
  return out;
}

function setAt(value: unknown, at: Array<string | number>, replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[at[at.length - 1]!] = replacement;
  return copy;
}

function getAt(value: unknown, at: Array<string | number>): unknown {
  let node = value as Record<string | number, unknown>;
  for (const k of at) node = node[k] as Record<string | number, unknown>;
  return node;
}

/** The classes of bad input; every operation gets each of them at least once per identity. */
export const CLASSES = [
  'valid',
  'wrongType',
  'nul',
  'surrogate',
  'rawBytes',
  'badEscape',
  'huge',
  'deep',
  'contentType',
  'badJson',
  'multipart',
] as const;
export type FuzzClass = (typeof CLASSES)[number];

/** A marker placed in a string and replaced by raw bytes after JSON.stringify. */
const MARK = '\uE000FUZZ\uE000';
const INVALID_UTF8: Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
  Buffer.from([0xe4, 0xb8]), // a truncated sequence
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), // above U+10FFFF
  Buffer.from([0xc0, 0xaf]), // overlong
];
const BAD_ESCAPES = ['%zz', '%E4%B8', '%', '%ED%A0%80', '%C3%28', '%FF', '%2'];
const BAD_JSON = [
  '{"a":',
  '{"a":1,}',
  '{a:1}',
  '[1,2',
  'NaN',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '',
  'null',
  '"text"',
  '[]',
  '1e999999',
  '\uFEFF{}',
  '{"a":"\\u00"}',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/ocsp-request',
  'image/png',
  'multipart/mixed; boundary=x',
  ';;;',
];
/** 1,000,000 characters: with its JSON around it, just under the 1 MiB body limit, so it reaches validation. */
export const HUGE = 'A'.repeat(1_000_000);
export const DEEP = '['.repeat(10_000) + ']'.repeat(10_000);

function withStringAt(
  op: Operation,
  call: Call,
  rnd: Rnd,
  make: (s: string) => string,
  where?: 'path' | 'query' | 'body',
) {
  const slots = stringSlots(call.body);
  const choices: Array<'path' | 'query' | 'body'> = [];
  if (op.pathParams.length > 0) choices.push('path');
  if (call.query.length > 0 || op.query.length > 0) choices.push('query');
  if (slots.length > 0) choices.push('body');
  const target = where && choices.includes(where) ? where : choices.length > 0 ? pick(rnd, choices) : 'query';
  if (target === 'body') {
    const at = pick(rnd, slots);
    return { ...call, body: setAt(call.body, at, make(String(getAt(call.body, at)))) };
  }
  if (target === 'path') {
    const name = pick(rnd, op.pathParams).name;
    return { ...call, path: { ...call.path, [name]: enc(make(decodeURIComponent(call.path[name] ?? 'x'))) } };
  }
  const query = [...call.query];
  if (query.length === 0) query.push([enc(op.query[0]?.name ?? 'q'), 'x']);
  const i = Math.floor(rnd() * query.length);
  query[i] = [query[i]![0], enc(make(decodeURIComponent(query[i]![1])))];
  return { ...call, query };
}

const boundary = 'fuzzBoundary';
const part = (headers: string, body: string | Buffer) =>
  Buffer.concat([
    Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`, 'latin1'),
    Buffer.from(body),
    Buffer.from('\r\n'),
  ]);
const MULTIPART_BODIES: Array<() => { type: string; body: Buffer }> = [
  () => ({ type: 'multipart/form-data', body: Buffer.from('no boundary at all') }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: part('Content-Disposition: form-data; name="file"; filename="a.pdf"', '%PDF-1.7 trunc').subarray(
      0,
      70,
    ),
  }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from('--other\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n--other--\r\n'),
  }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from(`--${boundary}\r\ngarbage header without colon\r\nmore\r\n--${boundary}--\r\n`),
  }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      part(
        'Content-Disposition: form-data; name="file"; filename="a\u0000b.pdf"\r\nContent-Type: application/pdf',
        '%PDF-1.7\n',
      ),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      part('Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'%ED%A0%80%zz.pdf', '%PDF-1.7\n'),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      part('Content-Disposition: form-data; name="file"; filename="a.pdf"', '%PDF-1.7\n'),
      part('Content-Disposition: form-data; name="file"; filename="b.pdf"', '%PDF-1.7\n'),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  }),
  () => ({
    type: `multipart/form-data; boundary=${'b'.repeat(300)}`,
    body: Buffer.from(`--${'b'.repeat(300)}--\r\n`),
  }),
  () => ({ type: `multipart/form-data; boundary=${boundary}`, body: Buffer.alloc(0) }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      part(`Content-Disposition: form-data; name="file"; filename="${'n'.repeat(20_000)}.pdf"`, '%PDF-1.7\n'),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  }),
  () => ({
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      part('Content-Disposition: form-data; name="__proto__"', '{"x":1}'),
      part('Content-Disposition: form-data; name="field"\r\nContent-Type: application/json', '{bad json'),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  }),
];
export const MULTIPART_VARIANTS = MULTIPART_BODIES.length;

/**
 * One request of a class for an operation. `variant` picks among the ways a class can be bad (the
 * mandatory pass walks them in turn; the random pass draws them).
 */
export function mutate(op: Operation, cls: FuzzClass, rnd: Rnd, variant: number): FuzzRequest {
  const call = fillCall(op, rnd);
  const base = jsonRequest(op, call);
  const hasBody = op.method !== 'GET';
  switch (cls) {
    case 'valid':
      return base;
    case 'wrongType': {
      const swaps: unknown[] = [12345, -1.5, true, null, [], {}, ['a', 'b'], 'text', 1e308, 2 ** 60];
      if (op.body && variant % 2 === 0) {
        const slots = leafSlots(call.body);
        const at = pick(rnd, slots);
        return jsonRequest(op, { ...call, body: setAt(call.body, at, pick(rnd, swaps)) });
      }
      // Query and path parameters: numbers as words, repeated keys (arrays), objects in brackets.
      const query = [...call.query];
      const name = op.query.length > 0 ? enc(pick(rnd, op.query).name) : 'q';
      query.push([name, pick(rnd, ['abc', '-1', '1.5', '1e400', 'true', '[]', '{}', ''])], [name, 'second']);
      const path = { ...call.path };
      for (const p of op.pathParams)
        if (rnd() < 0.5) path[p.name] = pick(rnd, ['-1', '1.5', 'abc', '0x10', '%20']);
      const req = jsonRequest(op, { ...call, query, path });
      if (op.body && hasBody) req.payload = JSON.stringify(pick(rnd, swaps));
      return req;
    }
    case 'nul': {
      const where = (['path', 'query', 'body'] as const)[variant % 3]!;
      return jsonRequest(
        op,
        withStringAt(op, call, rnd, (s) => `${s}\u0000${s}`, where),
      );
    }
    case 'surrogate': {
      const where = (['body', 'query', 'path'] as const)[variant % 3]!;
      const lone = pick(rnd, ['\uD800', '\uDFFF', 'a\uDBFFb', '\uDC00\uD800']);
      if (where === 'body' && stringSlots(call.body).length > 0)
        return jsonRequest(
          op,
          withStringAt(op, call, rnd, (s) => s + lone, 'body'),
        );
      // encodeURIComponent refuses lone surrogates; write their UTF-8-like escapes by hand.
      const escaped = pick(rnd, ['%ED%A0%80', '%ED%BF%BF', '%ED%B0%80']);
      return withRawEscape(op, call, rnd, escaped, where === 'body' ? 'query' : where);
    }
    case 'rawBytes': {
      const bytes = INVALID_UTF8[variant % INVALID_UTF8.length]!;
      if (hasBody) {
        const body =
          stringSlots(call.body).length > 0
            ? withStringAt(op, call, rnd, (s) => s + MARK, 'body').body
            : { text: MARK };
        const json = Buffer.from(JSON.stringify(body), 'utf8');
        const mark = Buffer.from(JSON.stringify(MARK).slice(1, -1), 'utf8');
        const at = json.indexOf(mark);
        const payload = Buffer.concat([json.subarray(0, at), bytes, json.subarray(at + mark.length)]);
        return { ...base, headers: { 'content-type': 'application/json' }, payload };
      }
      const escaped = [...bytes].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
      return withRawEscape(op, call, rnd, escaped, variant % 2 === 0 ? 'query' : 'path');
    }
    case 'badEscape':
      return withRawEscape(
        op,
        call,
        rnd,
        BAD_ESCAPES[variant % BAD_ESCAPES.length]!,
        variant % 2 === 0 ? 'path' : 'query',
      );
    case 'huge': {
      const where = (['body', 'query', 'path'] as const)[variant % 3]!;
      if (where === 'body' && hasBody) {
        const body =
          stringSlots(call.body).length > 0
            ? withStringAt(op, call, rnd, () => HUGE, 'body').body
            : { text: HUGE };
        return jsonRequest(op, { ...call, body });
      }
      // 7,000 characters fit under the URL bound and reach validation; the 1 MB form must be refused early.
      const size = rnd() < 0.5 ? 7_000 : 1_000_000;
      return jsonRequest(
        op,
        withStringAt(op, call, rnd, () => 'x'.repeat(size), where === 'body' ? 'query' : where),
      );
    }
    case 'deep': {
      if (!hasBody)
        return jsonRequest(
          op,
          withStringAt(op, call, rnd, () => DEEP.slice(0, 4_000), 'query'),
        );
      const slots = op.body ? leafSlots(call.body) : [];
      // The whole body, or one field of an otherwise fitting body, nested 10,000 levels.
      const payload =
        variant % 2 === 0 || slots.length === 0
          ? DEEP
          : JSON.stringify(setAt(call.body, pick(rnd, slots), MARK)).replace(JSON.stringify(MARK), DEEP);
      return { ...base, headers: { 'content-type': 'application/json' }, payload };
    }
    case 'contentType': {
      const type = CONTENT_TYPES[variant % CONTENT_TYPES.length]!;
      const payload = call.body === undefined ? 'a=1&b=2' : JSON.stringify(call.body);
      return {
        method: op.method,
        url: base.url,
        headers: { 'content-type': type },
        ...(hasBody ? { payload } : {}),
      };
    }
    case 'badJson':
      return {
        method: op.method,
        url: base.url,
        headers: { 'content-type': 'application/json' },
        ...(hasBody ? { payload: BAD_JSON[variant % BAD_JSON.length]! } : {}),
      };
    case 'multipart': {
      const { type, body } = MULTIPART_BODIES[variant % MULTIPART_BODIES.length]!();
      return {
        method: op.method,
        url: base.url,
        headers: { 'content-type': type },
        ...(hasBody ? { payload: body } : {}),
      };
    }
  }
}

function withRawEscape(
  op: Operation,
  call: Call,
  rnd: Rnd,
  escaped: string,
  where: 'path' | 'query',
): FuzzRequest {
  if (where === 'path' && op.pathParams.length > 0) {
    const name = pick(rnd, op.pathParams).name;
    return jsonRequest(op, { ...call, path: { ...call.path, [name]: `a${escaped}` } });
  }
  const query = [...call.query];
  const name = op.query.length > 0 ? enc(pick(rnd, op.query).name) : 'q';
  query.push([name, `a${escaped}`]);
  return jsonRequest(op, { ...call, query });
}
