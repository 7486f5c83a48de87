// `npm test`: every test. The browser tests run after the others, not beside them: on a two-core machine
// the server suites of both databases would otherwise starve the browser and turn waits into timeouts.
// With arguments (`npm test -- path/to/file.test.ts`) it is a plain `vitest run` with them.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const vitest = (extra) =>
  spawnSync('npx', ['vitest', 'run', ...extra], { stdio: 'inherit', shell: false }).status ?? 1;

if (args.length > 0) process.exit(vitest(args));
const first = vitest([
  '--project',
  'unit',
  '--project',
  'server',
  '--project',
  'web',
  '--project',
  'ukey-agent',
]);
const browser = vitest(['--project', 'e2e']);
process.exit(first !== 0 ? first : browser);
