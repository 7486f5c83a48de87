import { z } from 'zod';

/** POST /v1/qrcode/genQRCode: a QR code of an address of this platform (a path, or a full address on it). */
export const qrCodeRequest = z.object({
  content: z
    .string()
    .trim()
    .min(1)
    .max(1024)
    .describe('a path of this site, or a full address on its origin'),
  format: z.enum(['svg', 'png']).default('svg'),
});
export const qrCodeResponse = z.object({
  content: z.string().describe('the full address the code carries'),
  format: z.enum(['svg', 'png']),
  image: z.string().describe('a data: URL of the picture'),
});
