import { z } from 'zod';

/** The acts a person may rate (spec section 1: feedback ratings). */
export const RATING_SCENES = ['sign', 'verify', 'getSeal'] as const;
export const ratingScene = z.enum(RATING_SCENES);
export const RATING_COMMENT_MAX = 200;

/** POST /v1/ces/showStatus: whether to offer the rating prompt for this act. */
export const cesShowStatusRequest = z.object({
  scene: ratingScene,
  bizId: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe('the act: a flow id, a verification report id, a seal code'),
});
export const cesShowStatusResponse = z.object({
  show: z.boolean().describe('false once this person rated or closed the prompt for this act'),
});

/** POST /v1/ces/showResult: the rating (1–5 stars and a comment), or a closed prompt (no score). */
export const cesShowResultRequest = cesShowStatusRequest.extend({
  score: z.number().int().min(1).max(5).nullable().default(null),
  comment: z.string().trim().max(RATING_COMMENT_MAX).optional(),
});
export const cesShowResultResponse = z.object({ recorded: z.boolean() });

/** The ratings of a scene over a period, for the regulator's dashboard. */
export const ratingSummary = z.object({
  scene: ratingScene,
  ratings: z.number().int(),
  closed: z.number().int().describe('prompts closed without a rating'),
  average: z.number().nullable(),
  byScore: z.array(z.number().int()).length(5).describe('how many gave 1, 2, 3, 4 and 5 stars'),
});
