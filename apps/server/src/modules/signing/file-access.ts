/**
 * Downloads through a sign flow: the files uploaded into a flow, and the seal pictures its approvals
 * show, are read by the flow's participants (initiator, signers, the signing and seal administrators
 * of a signing party) as `participation` judges them now. The files module asks this rule when it
 * issues an address through a flow and again whenever the address is used, so someone who leaves the
 * flow's organisation, or the flow, stops reading at once.
 */
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { FileAccessRule, FileHolder, FileRow, FilesService } from '../files/files.service';
import type { AuthContext } from '../session/session.service';
import { participation } from './flow-context';
import { flowsWithOriginal } from './access.repository';
import * as repo from './flows.repository';

/** The object name of this rule in download addresses. */
export const FLOW_ACCESS = 'flow';

async function participates(db: Db, ctx: AuthContext, flowId: string): Promise<boolean> {
  try {
    await participation(db, ctx, flowId);
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/** Whether the file belongs to the flow: one of its uploaded files, or the seal picture of one of its approvals. */
async function isFlowFile(db: Db, flowId: string, file: FileRow): Promise<boolean> {
  if ((await repo.filesOf(db, flowId)).some((f) => f.original_file_key === file.key)) return true;
  if (file.purpose !== 'sealImage') return false;
  return (await repo.approvalsOfFlow(db, flowId)).some((a) => a.image_file_key === file.key);
}

async function allows(db: Db, holder: FileHolder, flowId: string, file: FileRow): Promise<boolean> {
  if (holder.kind !== 'person' || !flowId) return false;
  return (await isFlowFile(db, flowId, file)) && (await participates(db, holder.ctx, flowId));
}

export const flowFileAccess: FileAccessRule = {
  allows,
  async find(db, holder, file) {
    if (holder.kind !== 'person') return null;
    for (const flowId of await flowsWithOriginal(db, file.key))
      if (await participates(db, holder.ctx, flowId)) return flowId;
    return null;
  },
};

type Urls = Pick<FilesService, 'urlThrough'>;

/** A picture of a seal the caller may use, read through the seal (its viewers may read it). */
export const sealPictureUrl = (files: Urls, ctx: AuthContext, fileKey: string, sealCode: string) =>
  files.urlThrough({ kind: 'person', ctx }, fileKey, { via: 'seal', id: sealCode }).url;

/** A picture shown in a flow (the seal an approval is about), read through the flow by its participants. */
export const flowPictureUrl = (files: Urls, ctx: AuthContext, fileKey: string, flowId: string) =>
  files.urlThrough({ kind: 'person', ctx }, fileKey, { via: FLOW_ACCESS, id: flowId }).url;
