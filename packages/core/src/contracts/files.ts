import { z } from 'zod';

export const uploadedFile = z.object({
  fileKey: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  sha256: z.string(),
});
export const fileUrlRequest = z.object({ fileKey: z.string().max(128), internal: z.boolean().optional() });
export const fileUrlResponse = z.object({ url: z.string(), expiresAt: z.string() });
export const downloadUrlQuery = z.object({
  fileKey: z.string().max(128),
  internal: z.coerce.boolean().optional(),
  needStaticUrl: z.coerce.boolean().optional(),
});
export type UploadedFile = z.infer<typeof uploadedFile>;
