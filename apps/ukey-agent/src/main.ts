/** Starts the UKey agent on the loopback interface: `npm run start -w @openseal/ukey-agent`. */
import { buildAgent } from './agent';
import { loadAgentConfig } from './config';

const config = loadAgentConfig();
const app = await buildAgent(config);
const address = await app.listen({ host: config.host, port: config.port });
// One machine-readable line, so a launcher (or a test) learns the port when it asked for port 0.
process.stdout.write(
  `${JSON.stringify({ listening: address, module: config.modulePath ?? null, origins: config.allowedOrigins })}\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
