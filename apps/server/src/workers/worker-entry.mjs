// The entry of every pool worker. The server runs TypeScript through tsx (and tests through vitest), and
// neither's loader reaches a worker thread on Node 20, so the worker registers tsx's loader itself
// before it imports the task module. The compiled server's workers start from worker-compiled.ts.
import { register } from 'tsx/esm/api';

register();
const { runTask, loadTaskLibraries } = await import('./tasks.ts');
await loadTaskLibraries();

export default runTask;
