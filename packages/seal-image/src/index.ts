export { SealImageError, type SealImageErrorCode } from './errors';
export { DEFAULT_SEAL_FONT, SEAL_FONTS, isSealFont, type SealFontName } from './fonts';
export { gridColumns, shapeOf, TEXT_RULES, type SealShape, type TextField, type TextRole } from './rules';
export { MAX_SEAL_MM, MIN_SEAL_MM, parseTemplate, sealTemplateSchema } from './schema';
export { createTemplate, DEFAULT_SEAL_COLOR, DEFAULT_SIZE_MM, FINANCE_TITLE } from './template';
export { templateText } from './text';
export { renderSvg } from './render-svg';
export { imagePx, MAX_SEAL_PNG_BYTES, mmToPx, SEAL_DPI } from './units';
export type {
  BaseInfo,
  BorderInfo,
  GlyphSet,
  ImageInfo,
  SealSpec,
  SealTemplate,
  SealType,
  SecurityLineInfo,
  TextInfo,
} from './types';
