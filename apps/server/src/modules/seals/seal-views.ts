/**
 * How seals and seal applications (work orders) are shown: the response shapes the applications, the
 * claim, the seal list and detail and the operator's review queue share.
 */
import { contracts, maskPhone, type Language } from '@openseal/core';
import type { FilesService } from '../files/files.service';
import type { AuthContext } from '../session/session.service';
import { iso } from './seal-context';
import type * as repo from './seals.repository';

type SealKind = contracts.SealKind;
type DrawType = contracts.SealDrawType;
const { SEAL_KIND_INFO, WORK_ORDER_MACHINE, SEAL_MACHINE } = contracts;

type ReceiveStatus = 'unclaimed' | 'making' | 'made' | 'failed' | 'closed';

/** Which person or organisation holds the certificate, as issued. */
function holderId(subjectSpec: string | null): string | null {
  if (!subjectSpec) return null;
  const s = JSON.parse(subjectSpec) as { organizationIdentifier?: string; serialNumber?: string };
  return s.organizationIdentifier ?? s.serialNumber ?? null;
}

function kindName(kind: string, lang: Language): string {
  const info = SEAL_KIND_INFO[kind as SealKind];
  return info ? (lang === 'en' ? info.en : info.zh) : kind;
}

function receiveStatusOf(w: repo.WorkOrderView): ReceiveStatus {
  if (w.status === 'made') return 'made';
  if (w.status === 'rejected' || w.status === 'withdrawn') return 'closed';
  if (w.status !== 'pendingProduction' || !w.claimed_at) return 'unclaimed';
  return w.job_status === 'failed' ? 'failed' : 'making';
}

function makingOf(w: repo.WorkOrderView) {
  if (!w.make_job_id || !w.job_status) return null;
  // The handler commits the made seal a moment before the runner marks its job done: a made order's
  // job has done its work, so the page never sees "made" beside a job still "running".
  const made = w.status === 'made';
  return {
    jobId: w.make_job_id,
    state: made ? ('done' as const) : w.job_status,
    progress: made ? 100 : (w.job_progress ?? 0),
    note: w.job_note,
    attempts: w.job_attempts ?? 0,
    error: w.job_error,
  };
}

export function workOrderOut(w: repo.WorkOrderView, lang: Language) {
  return {
    applyNo: w.apply_no,
    status: w.status,
    sealKind: w.seal_kind as SealKind,
    sealKindName: kindName(w.seal_kind, lang),
    sealType: w.seal_type as DrawType,
    carrier: w.carrier,
    sealName: w.seal_name,
    title: w.title,
    title0: w.title0,
    widthMm: w.width_mm,
    heightMm: w.height_mm,
    organizeId: w.organization_id,
    organizeName: w.org_name,
    applicantName: w.applicant_name,
    applicantMobile: w.applicant_mobile ? maskPhone(w.applicant_mobile) : null,
    rejectReason: w.reject_reason,
    createTime: w.created_at.toISOString(),
    submitTime: iso(w.submitted_at),
    reviewTime: iso(w.reviewed_at),
    claimTime: iso(w.claimed_at),
    completeTime: iso(w.completed_at),
    sealCode: w.seal_code,
    receiveStatus: receiveStatusOf(w),
    making: makingOf(w),
    actions: contracts.allowedActions(WORK_ORDER_MACHINE, w.status),
  };
}

export function receiveOut(w: repo.WorkOrderView) {
  return {
    applyNo: w.apply_no,
    status: w.status,
    receiveStatus: receiveStatusOf(w),
    sealCode: w.seal_code,
    making: makingOf(w),
  };
}

/** A seal as its holder sees it; the picture's address is signed for the caller (none without one). */
export function sealOut(
  files: Pick<FilesService, 'urlThrough'>,
  ctx: AuthContext | null,
  s: repo.SealView,
  lang: Language,
  now = new Date(),
) {
  const status = contracts.effectiveSealStatus(s.status, s.valid_to, now);
  const imageUrl =
    ctx && s.image_file_key
      ? files.urlThrough({ kind: 'person', ctx }, s.image_file_key, { via: 'seal', id: s.seal_code }).url
      : null;
  return {
    sealCode: s.seal_code,
    sealKind: s.seal_kind as SealKind,
    sealKindName: kindName(s.seal_kind, lang),
    sealType: s.seal_type as DrawType,
    carrier: s.carrier,
    name: s.name,
    status,
    widthMm: s.width_mm,
    heightMm: s.height_mm,
    validFrom: iso(s.valid_from),
    validTo: iso(s.valid_to),
    certSerial: s.cert_serial,
    certHolder: s.cert_common_name,
    certHolderId: holderId(s.cert_subject_spec),
    certStatus: s.cert_status,
    imageUrl,
    template: s.template ? (JSON.parse(s.template) as unknown) : null,
    organizeId: s.organization_id,
    organizeName: s.org_name,
    holderName: s.person_name,
    applyNo: s.apply_no,
    createTime: s.created_at.toISOString(),
    actions: contracts.allowedActions(SEAL_MACHINE, status),
  };
}
