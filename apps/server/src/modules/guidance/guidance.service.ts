/**
 * The first-use guidance log (spec section 7 Misc "guidance log check and save"; OPERATION_GUIDE of
 * section 3): whether a signed-in person should get a page's short tour, and the log that they finished
 * or closed it, so it is shown once per person and page, whichever space or device they use.
 */
import { contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import type { ConfigService } from '../config/config.service';
import * as repo from './guidance.repository';

export function createGuidanceService(deps: { config: Pick<ConfigService, 'get'> }) {
  const enabled = async () => contracts.operationGuideOn(await deps.config.get('OPERATION_GUIDE'));
  return {
    async check(
      db: Db,
      personId: string,
      page: contracts.GuidePage,
    ): Promise<z.infer<typeof contracts.guidanceCheckResponse>> {
      const on = await enabled();
      const seen = await repo.findGuidance(db, personId, page);
      return {
        page,
        enabled: on,
        show: on && !seen,
        seenAt: seen?.created_at.toISOString() ?? null,
      };
    },

    async save(
      db: Db,
      personId: string,
      input: z.infer<typeof contracts.guidanceSaveRequest>,
    ): Promise<z.infer<typeof contracts.guidanceSaveResponse>> {
      const saved = await repo.insertGuidance(db, { personId, ...input });
      const row = await repo.findGuidance(db, personId, input.page);
      return { saved, seenAt: (row?.created_at ?? new Date()).toISOString() };
    },
  };
}

export type GuidanceService = ReturnType<typeof createGuidanceService>;
