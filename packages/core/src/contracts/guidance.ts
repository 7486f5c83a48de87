import { z } from 'zod';

/**
 * The first-use tour (OPERATION_GUIDE) and its guidance log: a signed-in person who has not seen the
 * guide of a page gets a short tour of its main controls; finishing or closing it is logged so it is not
 * shown again.
 */
export const GUIDE_PAGES = ['home', 'sealList', 'signList'] as const;
export type GuidePage = (typeof GUIDE_PAGES)[number];
export const guidePage = z.enum(GUIDE_PAGES);

export const guidanceCheckQuery = z.object({ page: guidePage });
export const guidanceCheckResponse = z.object({
  page: guidePage,
  /** OPERATION_GUIDE is on in this deployment. */
  enabled: z.boolean(),
  /** Show the tour now: enabled and not yet seen by this person. */
  show: z.boolean(),
  seenAt: z.string().nullable(),
});

export const guidanceSaveRequest = z.object({
  page: guidePage,
  action: z.enum(['finished', 'closed']),
  step: z.number().int().min(0).max(50).default(0).describe('the step shown last (0-based)'),
});
export const guidanceSaveResponse = z.object({
  /** false when the page's guide was logged before (the first answer stays). */
  saved: z.boolean(),
  seenAt: z.string(),
});

/**
 * Whether an OPERATION_GUIDE value turns the tour on: an explicit 'true' ('1', 'on', 'yes'). Anything else
 * is off, the address of a guide included (older deployments, and the seed, keep '/docs' there).
 */
export function operationGuideOn(value: string | null | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return !!v && ['true', '1', 'on', 'yes'].includes(v);
}
