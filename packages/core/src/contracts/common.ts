import { z } from 'zod';

/** The `{code, message, data}` envelope every JSON answer uses (DESIGN.md, Contracts). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}
export const errorEnvelope = z.object({ code: z.number().int(), message: z.string(), data: z.unknown() });

export const identityType = z.union([z.literal(1), z.literal(2)]).describe('1 organisation, 2 person');
export const realNameStatus = z.number().int().describe('0 none, 1 verified, 2 pending, 3 failed');
export const id = z.string().min(1).max(64);
