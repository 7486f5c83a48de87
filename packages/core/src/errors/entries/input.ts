import type { CatalogueEntry } from '../catalogue';

/**
 * Catalogue entries of input hygiene (1101–1119): bad characters, bad encodings, malformed URLs and
 * bodies, content a QR code may not carry. Every one is the client's fault, so every one is a 4xx; merged into the catalogue in catalogue.ts.
 */
export const INPUT_ENTRIES = [
  {
    code: 1101,
    http: 400,
    key: 'request.nulCharacter',
    handling: 'toastFail',
    zh: '请求中含有空字符（NUL），请删除后重试',
    en: 'The request contains a NUL character; remove it and try again',
  },
  {
    code: 1102,
    http: 400,
    key: 'request.badUtf8',
    handling: 'toastFail',
    zh: '请求中含有无效的 UTF-8 编码文字',
    en: 'The request contains text that is not valid UTF-8',
  },
  {
    code: 1103,
    http: 400,
    key: 'request.badUrl',
    handling: 'toastFail',
    zh: '请求地址的编码有误',
    en: 'The request address has a malformed escape or encoding',
  },
  {
    code: 1104,
    http: 400,
    key: 'request.tooDeep',
    handling: 'toastFail',
    zh: '请求内容的嵌套层级过深',
    en: 'The request body is nested too deeply',
  },
  {
    code: 1105,
    http: 400,
    key: 'request.badJson',
    handling: 'toastFail',
    zh: '请求内容不是有效的 JSON',
    en: 'The request body is not valid JSON',
  },
  {
    code: 1106,
    http: 400,
    key: 'request.unsupportedMediaType',
    handling: 'toastFail',
    zh: '该接口不接受此内容类型',
    en: 'This endpoint does not accept this content type',
  },
  {
    code: 1107,
    http: 400,
    key: 'request.badMultipart',
    handling: 'toastFail',
    zh: '上传内容的格式有误，文件未能完整接收',
    en: 'The upload is not a well-formed multipart body',
  },
  {
    code: 1108,
    http: 413,
    key: 'request.bodyTooLarge',
    handling: 'toastFail',
    zh: '请求内容过大',
    en: 'The request body is too large',
  },
  {
    code: 1109,
    http: 414,
    key: 'request.urlTooLong',
    handling: 'toastFail',
    zh: '请求地址过长',
    en: 'The request address is too long',
  },
  {
    code: 1110,
    http: 400,
    key: 'request.valueRejected',
    handling: 'toastFail',
    zh: '请求中的某个值无法保存，请检查后重试',
    en: 'A value in the request cannot be stored; check it and try again',
  },
  {
    code: 1111,
    http: 400,
    key: 'qrcode.notOwnAddress',
    handling: 'toastFail',
    zh: '二维码只能生成本平台的地址',
    en: 'A QR code can carry only an address of this platform',
  },
] as const satisfies readonly CatalogueEntry[];
