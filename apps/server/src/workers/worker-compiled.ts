// The entry of every pool worker in the compiled server (dist/worker-entry.mjs, beside the pool's code);
// worker-entry.mjs is the one for the TypeScript sources, run through tsx or vitest. The libraries load
// as the worker starts, before it takes a task.
import { loadTaskLibraries, runTask } from './tasks';

await loadTaskLibraries();

export default runTask;
