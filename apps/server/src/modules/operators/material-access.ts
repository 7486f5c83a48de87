/**
 * The platform's reviewers read applicants' materials (licences, authorisation letters, authority
 * application files) from the review queues. An address issued to an operator names them, and works
 * only while their account is active: a disabled operator's addresses stop at once.
 */
import type { FileAccessRule } from '../files/files.service';
import { findOperatorById } from './operators.repository';

export const REVIEW_ACCESS = 'review';

export const materialReviewAccess: FileAccessRule = {
  async allows(db, holder, _id, file) {
    if (holder.kind !== 'operator' || file.purpose !== 'material') return false;
    return (await findOperatorById(db, holder.operatorId))?.status === 'active';
  },
};
