/**
 * `openseal` command line: start, migrate, seed, sign, verify, evidence verify, version.
 * Exit codes: 0 done, 1 failed, 2 unusable input. `verify` has one per verdict: 0 every signature
 * valid, 1 a signature invalid (or none at all), 2 unusable input, 3 none invalid but at least one
 * indeterminate (intact, its signer not confirmed).
 * Part of the server app: each command imports the server code it needs only when it runs (`start`
 * listens as soon as the server module is imported), so `help` answers without loading the server.
 */
import { join } from 'node:path';
import { processIo } from './io';

const HELP = `openseal <command>

Commands:
  start            serve web + API (same settings as npm start; see README)
  migrate          apply database migrations and exit
  seed             first-start configuration and demo data, then exit
  sign FILE -o OUT sign a PDF with a seal certificate of the local data directory (sign --help)
  verify FILE      check every signature of a PDF; --json for a machine-readable report (verify --help)
  evidence verify PROOF.json
                   check an evidence-log proof bundle offline against its signed tree head
  version          print the version
  help             this text

Settings come from the environment: PORT, DATA_DIR, DATABASE_URL, … (README, "Settings").`;

export async function main(argv: string[]): Promise<number> {
  const [command = 'help'] = argv;
  switch (command) {
    case 'start': {
      // The server module listens as soon as it is imported.
      await import('../server');
      return 0;
    }
    case 'migrate': {
      const { loadConfig } = await import('../config');
      const { migrateToLatest, openDatabase } = await import('@openseal/db');
      const config = loadConfig(process.env);
      const handle = await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
        schema: config.dbSchema,
      });
      try {
        const applied = await migrateToLatest(handle.db, handle.schema);
        process.stdout.write(
          applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n',
        );
      } finally {
        await handle.close();
      }
      return 0;
    }
    case 'seed': {
      // Building the app migrates and seeds; closing it leaves the data in place.
      const { loadConfig } = await import('../config');
      const { buildApp } = await import('../app');
      const { seedDemoSeals } = await import('../seed/demo-seals');
      const config = { ...loadConfig(process.env), logLevel: 'warn' as const };
      const app = await buildApp({ config });
      try {
        if (config.seedDemo) {
          await app.ready();
          await seedDemoSeals(app);
        }
      } finally {
        await app.close();
      }
      process.stdout.write('seeded\n');
      return 0;
    }
    case 'sign': {
      const { signCommand } = await import('./sign-command');
      return signCommand(argv.slice(1), processIo);
    }
    case 'verify': {
      const { verifyCommand } = await import('./verify-command');
      return verifyCommand(argv.slice(1), processIo);
    }
    case 'evidence': {
      const { evidenceCommand } = await import('./evidence-command');
      return evidenceCommand(argv.slice(1), processIo);
    }
    case 'version': {
      const { VERSION } = await import('../app');
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${HELP}\n`);
      return 0;
    default:
      process.stderr.write(`openseal: unknown command "${command}" (try: openseal help)\n`);
      return 2;
  }
}
