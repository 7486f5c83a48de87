import type { TestApp } from './harness';

/** Breaks the app's database under it, to see how an unexpected failure is answered. */
export async function closeDatabaseForTest(t: TestApp): Promise<void> {
  await t.app.database.close();
}
