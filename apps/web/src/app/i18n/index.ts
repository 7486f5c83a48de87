import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage } from '../../lib/language';
import { en } from './en';
import { routeTitleResources } from './route-titles';
import { zhCN } from './zh-CN';

/** i18next set-up: zh-CN by default, English available; titles of routes live in the `route` namespace. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: getLanguage(),
  fallbackLng: 'zh-CN',
  supportedLngs: ['zh-CN', 'en'],
  defaultNS: 'translation',
  ns: ['translation', 'route'],
  resources: {
    'zh-CN': { translation: zhCN, route: routeTitleResources(0) },
    en: { translation: en, route: routeTitleResources(1) },
  },
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
