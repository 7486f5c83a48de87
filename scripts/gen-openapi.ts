/**
 * Regenerates the committed OpenAPI document (docs/openapi.json) from the server's route schemas.
 * CI fails when the committed copy differs (apps/server/test/platform.test.ts).
 */
import { writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@openseal/db';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';

export async function generateOpenApi(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'openseal-gen-'));
  const database = await openDatabase();
  const app = await buildApp({
    config: loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      APP_SECRET: 'x'.repeat(32),
      SEED_DEMO: 'false',
    }),
    database,
  });
  await app.ready();
  const doc = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
  return doc;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const doc = await generateOpenApi();
  await writeFile(new URL('../docs/openapi.json', import.meta.url), doc);
  process.stdout.write('wrote docs/openapi.json\n');
}
