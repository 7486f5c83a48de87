import { buildApp } from './app';
import { loadConfig } from './config';

/** Listens; everything else is in buildApp. Stops gracefully on SIGINT/SIGTERM. */
const config = loadConfig(process.env);
const app = await buildApp({ config });

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
