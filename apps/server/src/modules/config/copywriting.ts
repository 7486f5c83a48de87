import type { Language } from '@openseal/core';

/** Interface copy served by /ecmp/copywriting/json, per application and language. */
export const COPYWRITING: Record<string, Record<Language, Record<string, string>>> = {
  web: {
    'zh-CN': {
      'home.title': '统一电子印章公共服务平台',
      'home.subtitle': '依法合规的电子印章申领、管理、签署与验证服务',
      'home.sealService': '印章服务',
      'home.signService': '签署服务',
      'home.verifySign': '验签服务',
      'footer.copyright': 'OpenSeal 开源电子印章平台',
    },
    en: {
      'home.title': 'Unified Electronic Seal Public Service Platform',
      'home.subtitle': 'Lawful electronic seals: apply, manage, sign and verify',
      'home.sealService': 'Seal service',
      'home.signService': 'Sign service',
      'home.verifySign': 'Verify signature',
      'footer.copyright': 'OpenSeal open-source e-seal platform',
    },
  },
};

export function copywritingFor(application: string, lang: Language): Record<string, string> {
  return COPYWRITING[application]?.[lang] ?? {};
}
