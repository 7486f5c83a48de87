import { contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import { newId } from '../../lib/ids';
import * as repo from './feedback.repository';

type Scene = z.infer<typeof contracts.ratingScene>;

/**
 * Feedback ratings (spec section 1): after signing, verifying or receiving a seal a person may rate the
 * service once per act — stars and a comment, or closing the prompt. The prompt never blocks: the pages
 * ask whether to show it and go on either way. The regulator's dashboard reads the summary.
 */
export function createFeedbackService() {
  return {
    async showStatus(db: Db, personId: string | null, input: { scene: Scene; bizId: string }) {
      const found = await repo.findRating(db, { scene: input.scene, bizId: input.bizId, personId });
      return { show: found === undefined };
    },

    async record(
      db: Db,
      who: { personId: string | null; organizationId: string | null },
      input: { scene: Scene; bizId: string; score: number | null; comment?: string | undefined },
    ) {
      const recorded = await repo.insertRating(db, {
        id: newId('rt'),
        scene: input.scene,
        bizId: input.bizId,
        personId: who.personId,
        organizationId: who.organizationId,
        score: input.score,
        comment: input.score === null ? null : input.comment?.trim() || null,
      });
      return { recorded };
    },

    /** Every scene's ratings in [from, to): counts by stars, closed prompts, the average. */
    async summary(db: Db, from: Date, to: Date): Promise<z.infer<typeof contracts.ratingSummary>[]> {
      const rows = await repo.countRatings(db, from, to);
      return contracts.RATING_SCENES.map((scene) => {
        const byScore = [1, 2, 3, 4, 5].map((s) =>
          Number(rows.find((r) => r.scene === scene && r.score === s)?.n ?? 0),
        );
        const ratings = byScore.reduce((a, b) => a + b, 0);
        const closed = Number(rows.find((r) => r.scene === scene && r.score === null)?.n ?? 0);
        const average =
          ratings === 0
            ? null
            : Math.round((byScore.reduce((a, n, i) => a + n * (i + 1), 0) / ratings) * 100) / 100;
        return { scene, ratings, closed, average, byScore };
      });
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
