import type { Db } from '@openseal/db';
import { drawLogoPng } from '../../seed/logo';
import { DEMO } from '../../seed/demo';
import { findCertificatesBySeal } from './pki.repository';
import type { PkiService } from './pki.service';

/** Until the seal service exists, the demo organisation's contract seal is a certificate and a drawn image. */
export const DEMO_SEAL_CODE = 'DEMO-CONTRACT-SEAL';

/** 42 mm at 400 dpi: the common size of a company round seal. */
const DEMO_SEAL_PX = Math.round((42 / 25.4) * 400);

export function demoSealImage(): Buffer {
  return drawLogoPng(DEMO_SEAL_PX);
}

/** The current good certificate of a seal code; for the demo seal, one is issued on first use. */
export async function sealCertificate(
  db: Db,
  pki: PkiService,
  sealCode: string,
): Promise<string | undefined> {
  const now = new Date();
  const usable = (await findCertificatesBySeal(db, sealCode)).find(
    (c) => c.status === 'good' && c.not_before <= now && c.not_after > now,
  );
  if (usable) return usable.serial;
  if (sealCode !== DEMO_SEAL_CODE) return undefined;
  const issued = await pki.issue(db, {
    profile: 'org-seal',
    subject: {
      commonName: `${DEMO.org.name}合同专用章`,
      organization: DEMO.org.name,
      organizationIdentifier: DEMO.org.uscc,
    },
    owner: { type: 'organization', id: DEMO.org.id },
    sealCode,
  });
  return issued.serial;
}
