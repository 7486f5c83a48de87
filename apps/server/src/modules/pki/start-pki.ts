import type { Db } from '@openseal/db';
import { fromPem } from '@openseal/pki';
import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../config';
import { openPlatformKeyStore } from './platform-key-store';
import { createPkiService, type PkiService } from './pki.service';

/** Opens the key store and the platform authorities (creating them on first start). Used by the server and the CLI. */
export async function startPki(
  db: Db,
  config: Pick<AppConfig, 'dataDir' | 'publicUrl' | 'pki'>,
  log: { info(o: object, msg: string): void; warn(msg: string): void },
): Promise<PkiService & { close(): Promise<void> }> {
  const keys = await openPlatformKeyStore(
    db,
    {
      dataDir: config.dataDir,
      kek: config.pki.kek,
      keyStore: config.pki.keyStore,
      pkcs11: config.pki.pkcs11,
    },
    (m) => log.warn(m),
  );
  const extraAnchors = config.pki.trustList ? fromPem(readFileSync(config.pki.trustList, 'utf8')) : [];
  const pki = createPkiService({
    db,
    keys,
    algorithm: config.pki.algorithm,
    publicUrl: config.publicUrl,
    extraAnchors,
    log,
  });
  try {
    await pki.start();
  } catch (err) {
    await keys.close();
    throw err;
  }
  return Object.assign(pki, { close: () => keys.close() });
}
