// The entry of every pool worker. The server runs TypeScript through tsx (and tests through vitest), and
// neither's loader reaches a worker thread on Node 20, so the worker registers tsx's loader itself
// before it imports the task module.
import { register } from 'tsx/esm/api';

register();
const { runTask } = await import('./tasks.ts');

export default runTask;
