import type { CatalogueEntry } from '../catalogue';

/** Catalogue entries of the seal image engine (6300–6349); merged into the catalogue in catalogue.ts. */
export const SEAL_IMAGE_ENTRIES = [
  {
    code: 6301,
    http: 400,
    key: 'sealImage.missingGlyph',
    handling: 'toastFail',
    zh: '印章字体中没有该字符，请更换文字',
    en: 'The seal font has no glyph for a character; change the text',
  },
  {
    code: 6302,
    http: 400,
    key: 'sealImage.fontUnknown',
    handling: 'toastFail',
    zh: '不支持的印章字体',
    en: 'Unknown seal font',
  },
  {
    code: 6303,
    http: 400,
    key: 'sealImage.templateInvalid',
    handling: 'toastFail',
    zh: '印章模板无效',
    en: 'The seal template is invalid',
  },
  {
    code: 6304,
    http: 400,
    key: 'sealImage.textLength',
    handling: 'toastFail',
    zh: '印章文字长度不符合规则',
    en: 'The seal text length breaks the layout rules',
  },
] as const satisfies readonly CatalogueEntry[];
