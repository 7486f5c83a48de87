import { buildApp } from './app';
import { announceReady, isClusterWorker, reportListening, runPrimary } from './cluster';
import { loadConfig } from './config';
import { seedDemoSeals } from './seed/demo-seals';

/**
 * Listens; everything else is in buildApp. With WORKERS > 1 (PostgreSQL) this process is the primary of
 * a cluster (cluster.ts): it prepares the platform once, then forks the processes that serve. Each
 * serving process stops gracefully on SIGINT/SIGTERM.
 */
const config = loadConfig(process.env);
const worker = isClusterWorker();
const primary = !worker && config.processes.count > 1;

const app = await buildApp({ config });
if (!worker) {
  if (config.processes.reason && config.processes.asked > 1)
    app.log.info({ workers: config.processes.asked }, `serving from one process: ${config.processes.reason}`);
  if (config.seedDemo) {
    // Demo seals are made through the API on the first start; a failure leaves the platform serving.
    await app.ready();
    await seedDemoSeals(app).then(
      (made) => made > 0 && app.log.info({ made }, 'made the demo seals'),
      (err: unknown) => app.log.warn({ err }, 'could not make the demo seals'),
    );
  }
}

if (primary) {
  // The platform is ready (migrated, keys made, data seeded): the serving processes only open it.
  await app.close();
  process.exit(await runPrimary(config, app.log, new URL(import.meta.url)));
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
const address = app.server.address();
const port = address && typeof address === 'object' ? address.port : config.port;
if (worker) reportListening(port);
else {
  app.log.info(`OpenSeal is serving on http://localhost:${port}`);
  announceReady([process.pid], port);
}
// Start the worker pool now rather than on the first upload (loading a worker takes a second or two).
app.work.warm().catch((err: unknown) => {
  // Stopping while the pool starts ends its first task: not a failure to report.
  if (!closing) app.log.warn({ err }, 'could not start the worker pool');
});
