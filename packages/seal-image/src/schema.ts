import { z } from 'zod';
import { SealImageError } from './errors';
import { isSealFont, SEAL_FONTS } from './fonts';
import { checkTextRules, MAX_SECURITY_TEXT } from './rules';
import { chars } from './text';
import { imagePx } from './units';
import type { SealTemplate } from './types';

/** Real sizes a seal may have, in mm (a 5 mm seal is unreadable, a 120 mm one is no seal). */
export const MIN_SEAL_MM = 10;
export const MAX_SEAL_MM = 100;
/** Longest text field of a template (the layout rules allow far less; this only bounds the parse). */
const MAX_TEXT = 200;
/** The centre image's path data: a star is under 200 characters, an emblem may be a few thousand. */
const MAX_PATH = 20_000;
/** Plain SVG path data only: nothing else can reach the SVG from a template. */
export const PATH_DATA = /^[MmLlHhVvCcSsQqTtAaZz0-9eE.,\s+-]*$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const CONTROL = /\p{Cc}/u;

const size = z.number().min(0).max(20_000);
const color = z.string().regex(COLOR, 'a colour is #rrggbb');
const text = (max: number) =>
  z
    .string()
    .refine((s) => chars(s).length <= max, `at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'no control characters');

const textInfo = z.strictObject({
  font: z.string().refine(isSealFont, `one of ${SEAL_FONTS.join(', ')}`),
  bolder: z.boolean(),
  content: text(MAX_TEXT),
  fontSize: size,
  y: z.number().min(-20_000).max(20_000),
  arcWidth: z.number().min(0).max(360),
  contentWidth: size,
});

export const sealTemplateSchema = z
  .strictObject({
    baseInfo: z.strictObject({
      sealType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      realWidth: z.number().min(MIN_SEAL_MM).max(MAX_SEAL_MM),
      realHeight: z.number().min(MIN_SEAL_MM).max(MAX_SEAL_MM),
      fontColor: color,
    }),
    contentInfo: textInfo,
    titleInfo: textInfo,
    title0Info: textInfo,
    serialInfo: textInfo,
    securityLineInfo: z.strictObject({
      content: text(MAX_SECURITY_TEXT),
      fontSize: size,
      angel: z.number().min(-360).max(360),
    }),
    imageInfo: z.strictObject({
      path: z.string().max(MAX_PATH).regex(PATH_DATA, 'plain SVG path data'),
      size,
      y: z.number().min(-20_000).max(20_000),
    }),
    borderInfo: z.strictObject({
      width: size,
      useDKLine: z.boolean(),
      lineColor: color,
      lineWidth: size,
    }),
  })
  .superRefine((t, ctx) => {
    const { width, height, realWidth, realHeight, sealType } = t.baseInfo;
    // The picture is the real size at 400 dpi: a template whose pixels disagree would print wrong.
    if (width !== imagePx(realWidth))
      ctx.addIssue({
        code: 'custom',
        path: ['baseInfo', 'width'],
        message: `${realWidth} mm is ${imagePx(realWidth)} px`,
      });
    if (height !== imagePx(realHeight))
      ctx.addIssue({
        code: 'custom',
        path: ['baseInfo', 'height'],
        message: `${realHeight} mm is ${imagePx(realHeight)} px`,
      });
    if ((sealType === 0 || sealType === 1 || sealType === 4) && realWidth !== realHeight)
      ctx.addIssue({
        code: 'custom',
        path: ['baseInfo', 'realHeight'],
        message: 'a round seal is as high as wide',
      });
    // One glyph set serves the whole picture, so every text names the same font.
    const fonts = new Set([t.contentInfo.font, t.titleInfo.font, t.title0Info.font, t.serialInfo.font]);
    if (fonts.size > 1)
      ctx.addIssue({ code: 'custom', path: ['titleInfo', 'font'], message: 'every text uses the same font' });
    if (t.borderInfo.width * 4 > Math.min(width, height))
      ctx.addIssue({
        code: 'custom',
        path: ['borderInfo', 'width'],
        message: 'the border is at most a quarter of the seal',
      });
  }) satisfies z.ZodType<SealTemplate>;

/**
 * Validates a template read from JSON (a saved preview, an upload) and returns a fresh copy. Throws
 * SealImageError `bad-template` for a malformed one, `text-too-long`/`text-too-short` for text that
 * breaks the layout rules of its seal type.
 */
export function parseTemplate(json: unknown): SealTemplate {
  const r = sealTemplateSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.join('.') || 'template';
    throw new SealImageError('bad-template', `${where}: ${issue?.message ?? 'invalid'}`, {
      issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  const t = r.data;
  checkTextRules(
    t.baseInfo.sealType,
    {
      contentInfo: t.contentInfo.content,
      titleInfo: t.titleInfo.content,
      title0Info: t.title0Info.content,
      serialInfo: t.serialInfo.content,
    },
    'bad-template',
  );
  return t;
}
