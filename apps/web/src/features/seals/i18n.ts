/**
 * This feature's own messages, merged into the translation namespace by `src/app/i18n` (one file per
 * feature, so features add words without touching a shared file). Inside the feature each page group has
 * its own file in `messages/`; top-level keys must differ between them and from `src/app/i18n/zh-CN.ts`.
 */
import * as apply from './messages/apply';
import * as authorize from './messages/authorize';
import * as common from './messages/common';
import * as flow from './messages/flow';
import * as manage from './messages/manage';
import * as preview from './messages/preview';
import * as ukey from './messages/ukey';

const GROUPS = [common, preview, apply, manage, authorize, flow, ukey];

export const zhCN = Object.assign({}, ...GROUPS.map((g) => g.zhCN)) as typeof common.zhCN &
  typeof preview.zhCN &
  typeof apply.zhCN &
  typeof manage.zhCN &
  typeof authorize.zhCN &
  typeof flow.zhCN &
  typeof ukey.zhCN;

export const en: typeof zhCN = Object.assign({}, ...GROUPS.map((g) => g.en)) as typeof zhCN;
