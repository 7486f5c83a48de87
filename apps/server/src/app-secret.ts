import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from './config';

/** The secret that signs download addresses and SMS code hashes: from APP_SECRET, or generated once into the data directory. */
export function appSecret(config: AppConfig, warn: (msg: string) => void): string {
  if (config.appSecret) return config.appSecret;
  const dir = join(config.dataDir, 'secrets');
  const file = join(dir, 'app-secret');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    warn(
      `APP_SECRET is not set: generated one in ${file}. Set APP_SECRET when running more than one instance.`,
    );
  }
  return readFileSync(file, 'utf8').trim();
}
