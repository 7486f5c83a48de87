/**
 * This feature's own messages, merged into the translation namespace by `src/app/i18n`. Inside the feature
 * each page group has its own file in `messages/`; top-level keys must differ between them and from the
 * app's and other features' keys.
 */
import * as common from './messages/common';
import * as records from './messages/records';
import * as signing from './messages/signing';

const GROUPS = [common, signing, records];

export const zhCN = Object.assign({}, ...GROUPS.map((g) => g.zhCN)) as typeof common.zhCN &
  typeof signing.zhCN &
  typeof records.zhCN;

export const en: typeof zhCN = Object.assign({}, ...GROUPS.map((g) => g.en)) as typeof zhCN;
