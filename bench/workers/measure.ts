/**
 * One measured operation in a fresh process: wall time of the operation alone, the process's resident
 * memory before it, and its peak resident memory (getrusage maxrss) over the whole life of the process.
 */
export async function measure(op: () => Promise<unknown>): Promise<void> {
  const baseRssMb = process.memoryUsage().rss / 1048576;
  const t0 = performance.now();
  await op();
  const ms = performance.now() - t0;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ ms, baseRssMb, peakRssMb })}\n`);
}
