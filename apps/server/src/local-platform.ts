/**
 * The platform's data directory opened without the HTTP server, for command-line work (sign, verify).
 * PGlite allows one process per directory: when a server holds it, say so rather than wait.
 */
import { migrateToLatest, openDatabase, type DatabaseHandle } from '@openseal/db';
import { join } from 'node:path';
import { appSecret } from './app-secret';
import { loadConfig, type AppConfig } from './config';
import { createLocalBlobStore } from './modules/files/file-store';
import { createFilesService, type FilesService } from './modules/files/files.service';
import { startPki } from './modules/pki/start-pki';
import type { PkiService } from './modules/pki/pki.service';
import type { EvidenceService } from './modules/evidence/evidence.service';
import { createPlatformEvidence } from './modules/evidence/platform-evidence';

export interface LocalPlatform {
  config: AppConfig;
  database: DatabaseHandle;
  pki: PkiService;
  /** The evidence log (no tree-head cadence here: the server signs heads; bundles sign one when needed). */
  evidence: EvidenceService;
  /** The stored files (seal images, for one): the same store and secret as the server's. */
  files: FilesService;
  close(): Promise<void>;
}

export async function openLocalPlatform(
  env: Record<string, string | undefined> = process.env,
): Promise<LocalPlatform> {
  const config = loadConfig(env);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
    schema: config.dbSchema,
  });
  try {
    await migrateToLatest(database.db, database.schema);
    const quiet = { info: () => {}, warn: (m: string) => process.stderr.write(`warning: ${m}\n`) };
    const pki = await startPki(database.db, config, quiet);
    const evidence = createPlatformEvidence({ db: database.db, pki, intervalMs: 0, log: { warn: () => {} } });
    const files = createFilesService({
      store: createLocalBlobStore(join(config.dataDir, 'files')),
      secret: appSecret(config, quiet.warn),
      fileSizeLimitMb: config.fileSizeLimitMb,
      urlTtlSeconds: config.downloadUrlTtlSeconds,
      // The command line issues no download addresses: nobody holds one.
      contextOf: async () => null,
    });
    return {
      config,
      database,
      pki,
      evidence,
      files,
      close: async () => {
        await pki.close();
        await database.close();
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}
