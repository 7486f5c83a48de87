import { AppError, CONFIG_SCENES, type ConfigCode, type ConfigScene, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import * as repo from './config.repository';

export interface ConfigCodeValue {
  code: string;
  value: string | null;
  fileKeyBase64: string | null;
}

const CACHE_MS = 5_000;

/**
 * System configuration (spec section 3 keys). Reads go through a short cache so a hot path (for example
 * the account-info call) does not query per request; several instances converge within CACHE_MS.
 */
export function createConfigService(deps: {
  db: Db;
  readDataUrl: (fileKey: string) => Promise<string | null>;
}) {
  let cache: {
    at: number;
    rows: Map<string, Awaited<ReturnType<typeof repo.listConfigValues>>[number]>;
  } | null = null;

  async function rows(codes: readonly string[]) {
    if (!cache || Date.now() - cache.at > CACHE_MS) {
      const all = await repo.listConfigValues(deps.db);
      cache = { at: Date.now(), rows: new Map(all.map((r) => [r.code, r])) };
    }
    return codes.map((c) => cache!.rows.get(c)).filter((r) => r !== undefined);
  }

  /** A text in another language is kept as its own row, `CODE@en`; it wins when the request is in English. */
  async function toBo(
    r: NonNullable<Awaited<ReturnType<typeof rows>>[number]>,
    lang: Language,
  ): Promise<ConfigCodeValue> {
    const translated = lang === 'en' ? (await rows([`${r.code}@en`]))[0] : undefined;
    return {
      code: r.code,
      value: translated?.value ?? r.value,
      fileKeyBase64: r.file_key ? await deps.readDataUrl(r.file_key) : null,
    };
  }

  return {
    /** Values of the given codes; anonymous callers see only public ones. */
    async values(
      codes: readonly string[],
      includePrivate: boolean,
      lang: Language = 'zh-CN',
    ): Promise<ConfigCodeValue[]> {
      const found = (await rows(codes.filter((c) => !c.includes('@')))).filter(
        (r) => includePrivate || r.is_public,
      );
      return Promise.all(found.map((r) => toBo(r, lang)));
    },
    async scene(sceneKey: string, lang: Language = 'zh-CN'): Promise<ConfigCodeValue[]> {
      if (!Object.hasOwn(CONFIG_SCENES, sceneKey))
        throw new AppError('request.invalid', { details: { sceneKey, known: Object.keys(CONFIG_SCENES) } });
      const found = (await rows(CONFIG_SCENES[sceneKey as ConfigScene])).filter((r) => r.is_public);
      return Promise.all(found.map((r) => toBo(r, lang)));
    },
    async get(code: ConfigCode): Promise<string | null> {
      return (await rows([code]))[0]?.value ?? null;
    },
    async flag(code: ConfigCode, fallback: boolean): Promise<boolean> {
      const v = await this.get(code);
      return v === null ? fallback : v === 'true';
    },
    async json<T>(code: ConfigCode, fallback: T): Promise<T> {
      const v = await this.get(code);
      if (v === null) return fallback;
      try {
        return JSON.parse(v) as T;
      } catch {
        return fallback;
      }
    },
    /** Adds the defaults whose codes are missing; answers how many were added. */
    async addMissing(
      db: Db,
      values: Array<{ code: string; value: string | null; fileKey?: string | null; isPublic: boolean }>,
    ): Promise<number> {
      let added = 0;
      for (const v of values) if (await repo.insertConfigIfAbsent(db, v)) added++;
      if (added > 0) cache = null;
      return added;
    },
    has: async (code: string) => (await rows([code])).length > 0,
    /** Drops the cache: the next read sees the database (a change this process just wrote). */
    forget(): void {
      cache = null;
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;
