import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage } from '../../lib/language';
import { en } from './en';
import { routeTitleResources } from './route-titles';
import { zhCN } from './zh-CN';
import * as membersMessages from '../../features/members/i18n';
import * as realnameMessages from '../../features/realname/i18n';
import * as ssoMessages from '../../features/sso/i18n';
import * as sealsMessages from '../../features/seals/i18n';
import * as verifyMessages from '../../features/verify/i18n';
import * as pdfViewerMessages from '../../components/pdf-viewer/messages';
import * as ofdViewerMessages from '../../components/ofd-viewer/messages';
import * as tourMessages from '../../components/first-use-tour/messages';
import * as signMessages from '../../features/sign/i18n';
import * as manageMessages from '../../features/manage/i18n';
import * as mobileMessages from './mobile';

/** Features that keep their messages in their own `i18n.ts`, and the mobile frame's words. */
const FEATURE_MESSAGES = [
  membersMessages,
  realnameMessages,
  ssoMessages,
  sealsMessages,
  signMessages,
  verifyMessages,
  pdfViewerMessages,
  ofdViewerMessages,
  tourMessages,
  manageMessages,
  mobileMessages,
];

/** i18next set-up: zh-CN by default, English available; titles of routes live in the `route` namespace. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: getLanguage(),
  fallbackLng: 'zh-CN',
  supportedLngs: ['zh-CN', 'en'],
  defaultNS: 'translation',
  ns: ['translation', 'route'],
  resources: {
    'zh-CN': {
      translation: Object.assign({}, zhCN, ...FEATURE_MESSAGES.map((m) => m.zhCN)),
      route: routeTitleResources(0),
    },
    en: {
      translation: Object.assign({}, en, ...FEATURE_MESSAGES.map((m) => m.en)),
      route: routeTitleResources(1),
    },
  },
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
