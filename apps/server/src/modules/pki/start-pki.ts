import type { Db } from '@openseal/db';
import { fromPem } from '@openseal/pki';
import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../config';
import { openPlatformKeyStore } from './platform-key-store';
import { createPkiService, CRL_LIFETIME_MS, type PkiService } from './pki.service';
import { dropVerifyMaterial, readVerifyMaterial, writeVerifyMaterial } from './verify-material';

/** A change is left this long to commit before the verification material is written again. */
const SETTLE_MS = 10_000;

/**
 * Opens the key store and the platform authorities (creating them on first start), and writes the
 * verification material into the data directory (verify-material.ts). Used by the server and the CLI; the
 * server passes `refreshEveryMs` to keep the material current.
 */
export async function startPki(
  db: Db,
  config: Pick<AppConfig, 'dataDir' | 'publicUrl' | 'pki'>,
  log: { info(o: object, msg: string): void; warn(msg: string): void },
  options: { refreshEveryMs?: number } = {},
): Promise<PkiService & { close(): Promise<void>; refreshVerifyMaterial(): Promise<void> }> {
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
  // Each change bumps the generation: a rewrite that saw an older one does not put its file back.
  let generation = 0;
  let changedAt = 0;
  const pki = createPkiService({
    db,
    keys,
    algorithm: config.pki.algorithm,
    publicUrl: config.publicUrl,
    extraAnchors,
    log,
    onTrustChange: () => {
      generation++;
      changedAt = Date.now();
      dropVerifyMaterial(config.dataDir);
    },
  });
  try {
    await pki.start();
  } catch (err) {
    await keys.close();
    throw err;
  }

  async function refreshVerifyMaterial(): Promise<void> {
    if (Date.now() - changedAt < SETTLE_MS) return;
    const seen = generation;
    const writtenAt = new Date();
    const [trust, crl] = await Promise.all([pki.trustStore(), pki.crl('issuing')]);
    if (seen !== generation) return;
    writeVerifyMaterial(config.dataDir, {
      anchors: trust.anchors,
      intermediates: trust.intermediates ?? [],
      crls: [crl],
      writtenAt,
      validUntil: new Date(writtenAt.getTime() + CRL_LIFETIME_MS),
    });
  }
  const refresh = () =>
    refreshVerifyMaterial().catch((err: unknown) =>
      log.warn(`could not write the verification material: ${(err as Error).message}`),
    );
  // A one-shot command writes it only when it is missing: a server keeps it current.
  if (options.refreshEveryMs || !readVerifyMaterial(config.dataDir)) await refresh();
  const timer = options.refreshEveryMs ? setInterval(refresh, options.refreshEveryMs) : undefined;
  timer?.unref();

  return Object.assign(pki, {
    refreshVerifyMaterial,
    close: async () => {
      clearInterval(timer);
      await keys.close();
    },
  });
}
