import { buildApp } from './app';
import { loadConfig } from './config';
import { seedDemoSeals } from './seed/demo-seals';

/** Listens; everything else is in buildApp. Stops gracefully on SIGINT/SIGTERM. */
const config = loadConfig(process.env);
const app = await buildApp({ config });
if (config.seedDemo) {
  // Demo seals are made through the API on the first start; a failure leaves the platform serving.
  await app.ready();
  await seedDemoSeals(app).then(
    (made) => made > 0 && app.log.info({ made }, 'made the demo seals'),
    (err: unknown) => app.log.warn({ err }, 'could not make the demo seals'),
  );
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
app.log.info(`OpenSeal is serving on http://localhost:${config.port}`);
// Start the worker pool now rather than on the first upload (loading a worker takes a second or two).
app.work.warm().catch((err: unknown) => app.log.warn({ err }, 'could not start the worker pool'));
