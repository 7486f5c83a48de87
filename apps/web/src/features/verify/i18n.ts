/**
 * This feature's own messages, merged into the translation namespace by `src/app/i18n` (one file per
 * feature, so features add words without touching a shared file).
 */
import * as verify from './messages/verify';

export const zhCN = verify.zhCN;
export const en: typeof zhCN = verify.en;
