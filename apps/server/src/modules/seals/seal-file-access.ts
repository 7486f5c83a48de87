/**
 * Who reads a seal's pictures (its image, the images of its changes, the hand-drawn picture it was made
 * from): whoever may view that seal now — a member of its organisation holding seal.view, or the person
 * whose personal seal it is, in their personal space. The files module asks this when it issues a
 * download address through a seal and again when the address is used.
 */
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { FileAccessRule, FileHolder } from '../files/files.service';
import { access, inScope } from './seal-context';
import * as repo from './seals.repository';

async function maySee(db: Db, holder: FileHolder, sealCode: string, fileKey: string): Promise<boolean> {
  if (holder.kind !== 'person') return false;
  const seal = await repo.findSeal(db, sealCode);
  if (!seal) return false;
  let a;
  try {
    a = await access(db, holder.ctx, 'seal.view');
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
  return inScope(a, seal) && (await repo.sealCodesOfFile(db, fileKey)).includes(sealCode);
}

export const sealFileAccess: FileAccessRule = {
  allows: (db, holder, sealCode, file) => maySee(db, holder, sealCode, file.key),
  async find(db, holder, file) {
    for (const code of await repo.sealCodesOfFile(db, file.key))
      if (await maySee(db, holder, code, file.key)) return code;
    return null;
  },
};
