import { messageFor, type Language } from '@openseal/core';

/** The success envelope. */
export function ok<T>(data: T, lang: Language = 'zh-CN') {
  return { code: 0, message: messageFor('ok', lang), data };
}
