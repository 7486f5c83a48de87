import fp from 'fastify-plugin';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db } from '@openseal/db';
import { join } from 'node:path';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    db: Db;
  }
}

/** Opens (or adopts) the database, migrates it, and closes it with the app. */
export default fp<{
  handle?: DatabaseHandle | undefined;
  databaseUrl?: string | undefined;
  dataDir: string;
  schema?: string | undefined;
}>(
  async (app, opts) => {
    const handle =
      opts.handle ??
      (await openDatabase({
        databaseUrl: opts.databaseUrl,
        dataDir: opts.databaseUrl ? undefined : join(opts.dataDir, 'pglite'),
        schema: opts.schema,
      }));
    const applied = await migrateToLatest(handle.db, handle.schema);
    if (applied.length > 0) app.log.info({ applied }, 'database migrated');
    // Other processes' changes, heard by notification (PostgreSQL; PGlite has no other process). Until
    // the listener is up, nothing that caches rows answers from memory; it retries by itself.
    await handle.writes.listen().catch((err: unknown) => {
      app.log.warn({ err }, "cannot listen for other processes' changes yet; caches stay off meanwhile");
    });
    app.decorate('database', handle);
    app.decorate('db', handle.db);
    app.addHook('onClose', async () => {
      if (!opts.handle) await handle.close();
    });
  },
  { name: 'db' },
);
