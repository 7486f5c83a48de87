/**
 * The seal a command-line signing uses: a made seal of the local data directory, by its code, or by
 * default the demo organisation's contract seal (which `openseal seed` makes). The rule is a flow
 * signer's: normal and within its validity, with a good certificate; the seal's own image and size.
 */
import { contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { DEMO } from '../../seed/demo';
import type { FilesService } from '../files/files.service';
import { sealForSigning, sealUsable, signableSeals } from './flows.repository';

export interface LocalSeal {
  sealCode: string;
  name: string;
  serial: string;
  png: Buffer;
  widthMm: number;
  heightMm: number;
  organizationId: string | null;
}

/** The seal, or why it cannot sign (one line, for the command's stderr). */
export async function localSeal(
  db: Db,
  files: FilesService,
  sealCode: string | undefined,
): Promise<LocalSeal | { refusal: string }> {
  const row = sealCode
    ? await sealForSigning(db, sealCode)
    : (await signableSeals(db, { organizationId: DEMO.org.id })).find((s) => s.seal_kind === 'contract');
  if (!row) {
    return {
      refusal: sealCode
        ? `no seal ${sealCode} in this data directory`
        : 'no seal given, and the demo organisation has no contract seal: run `openseal seed` first, or give --seal CODE',
    };
  }
  if (!sealUsable(row) || !row.cert_serial || !row.image_file_key) {
    const status = contracts.effectiveSealStatus(row.status as contracts.SealStatus, row.valid_to);
    return {
      refusal: `seal ${row.seal_code} cannot sign: it is ${status}, its certificate ${row.cert_status ?? 'missing'}`,
    };
  }
  const image = await files.readInternal(db, row.image_file_key);
  if (!image)
    return { refusal: `seal ${row.seal_code} cannot sign: its image is missing from the file store` };
  return {
    sealCode: row.seal_code,
    name: row.name,
    serial: row.cert_serial,
    png: image.bytes,
    widthMm: row.width_mm,
    heightMm: row.height_mm,
    organizationId: row.organization_id,
  };
}
