import type { Db } from '@openseal/db';
import { keyIdOf } from '@openseal/evidence';
import type { PkiService } from '../pki/pki.service';
import { createEvidenceService } from './evidence.service';

/** The evidence log signed with the platform's evidence key. */
export function createPlatformEvidence(deps: {
  db: Db;
  pki: PkiService;
  intervalMs: number;
  log: { warn(obj: object, msg: string): void };
}) {
  const key = deps.pki.evidenceKey();
  return createEvidenceService({
    db: deps.db,
    log: deps.log,
    signer: { keyId: keyIdOf(key.publicKeySpki), publicKeySpki: key.publicKeySpki, sign: (d) => key.sign(d) },
    intervalMs: deps.intervalMs,
  });
}
