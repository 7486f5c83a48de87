/**
 * System config keys of spec section 3, plus the few OpenSeal adds (marked "ours"). Values are strings;
 * booleans are 'true'/'false', lists are JSON arrays. Public ones are served without login by
 * GET /v1/organizes/dynamicConfig?sceneKey=… grouped by scene.
 */
export const CONFIG = {
  DEFAULT_LOGIN: 'DEFAULT_LOGIN', // 'platform' | 'sso'
  LEGAL_CREATE_DISABLE: 'LEGAL_CREATE_DISABLE', // 'true' hides create organisation for persons
  OPERATION_GUIDE: 'OPERATION_GUIDE',
  DEPLOY_GOV_APP_PLATFORM: 'DEPLOY_GOV_APP_PLATFORM',
  REALNAME_WAY: 'REALNAME_WAY', // 'platform' | 'external'
  PSN_EP_SWITCH: 'PSN_EP_SWITCH', // 'true': persons may switch between personal and organisation spaces
  PRESENTER_CONTRACT: 'PRESENTER_CONTRACT',
  PRESENTER_COPIES: 'PRESENTER_COPIES',
  IS_NEED_AMOUNT: 'IS_NEED_AMOUNT',
  ASYNCHRONOUS_SEAL_MAKE: 'ASYNCHRONOUS_SEAL_MAKE',
  PERSON_SSO_SPACE: 'PERSON_SSO_SPACE', // JSON list, e.g. ["person","org"]
  TOPIC_LOGO: 'TOPIC_LOGO', // image: fileKeyBase64 carries it
  SYS_NAME_PUBLIC: 'SYS_NAME_PUBLIC',
  BROWSER_UNIFY_LOGO: 'BROWSER_UNIFY_LOGO',
  ANNOUNCEMENT_CONTENT: 'ANNOUNCEMENT_CONTENT',
  DISPLAY_ANNOUNCEMENT: 'DISPLAY_ANNOUNCEMENT',
  CONFIG_STANDARD_SEAL_TYPE: 'CONFIG_STANDARD_SEAL_TYPE',
  CUSTOM_SEAL_CONFIG: 'CUSTOM_SEAL_CONFIG',
  LOW_CODE_SSO_PAGE: 'LOW_CODE_SSO_PAGE',
  HOME_BANNER: 'HOME_BANNER', // JSON list of {title, subtitle, image?}
  VERIFY_SIGN_BANNER: 'VERIFY_SIGN_BANNER',
  OPEN_PLATFORM_BANNER: 'OPEN_PLATFORM_BANNER',
  APPLICATION_CENTER_BANNER: 'APPLICATION_CENTER_BANNER',
  // ours
  MINOR_CONFIG: 'MINOR_CONFIG', // JSON list of top-navigation keys to hide: home, sealService, signService, verifySign, openPlatform, applicationCenter
  HELP_DOC_URL: 'HELP_DOC_URL',
  DATA_BOARD_ENABLED: 'DATA_BOARD_ENABLED', // 'true' only in the one city deployment that shows the data board link
  REALNAME_BANNER_VERIFIED: 'REALNAME_BANNER_VERIFIED', // home banner text for real-named users
  REALNAME_BANNER_UNVERIFIED: 'REALNAME_BANNER_UNVERIFIED',
  PLUGIN_ROUTES: 'PLUGIN_ROUTES', // JSON list of {path, title, kind:'iframe'|'link', target}
  PAYMENT_CHANNELS: 'PAYMENT_CHANNELS', // JSON list of {code, name, enabled}
  GOODS: 'GOODS', // JSON list of goods (UKeys, seals) with prices in fen
  VERIFY_FILE_SIZE_LIMIT: 'VERIFY_FILE_SIZE_LIMIT', // MB a verification upload may have (default 3, section 9); public through GET /v1/signFile/verify/config
  WILL_AUTH_METHODS: 'WILL_AUTH_METHODS', // JSON list of will-auth methods offered (sms, password, face, ukey), the first the default; POST /v1/auth/willAuthConfig
} as const;
export type ConfigCode = (typeof CONFIG)[keyof typeof CONFIG];

/** Scene keys for the public dynamic-config endpoint and the codes each returns. */
export const CONFIG_SCENES = {
  HOME: [
    'TOPIC_LOGO',
    'SYS_NAME_PUBLIC',
    'BROWSER_UNIFY_LOGO',
    'ANNOUNCEMENT_CONTENT',
    'DISPLAY_ANNOUNCEMENT',
    'HOME_BANNER',
    'MINOR_CONFIG',
    'HELP_DOC_URL',
    'DATA_BOARD_ENABLED',
    'REALNAME_BANNER_VERIFIED',
    'REALNAME_BANNER_UNVERIFIED',
    'DEFAULT_LOGIN',
    'LEGAL_CREATE_DISABLE',
    'PSN_EP_SWITCH',
    'REALNAME_WAY',
    'PERSON_SSO_SPACE',
    'PRESENTER_CONTRACT',
    'OPERATION_GUIDE',
  ],
  VERIFY_SIGN: ['VERIFY_SIGN_BANNER', 'SYS_NAME_PUBLIC', 'TOPIC_LOGO'],
  OPEN_PLATFORM: ['OPEN_PLATFORM_BANNER', 'SYS_NAME_PUBLIC', 'TOPIC_LOGO'],
  APPLICATION_CENTER: ['APPLICATION_CENTER_BANNER', 'SYS_NAME_PUBLIC', 'TOPIC_LOGO'],
  PLUGIN_ROUTE: ['PLUGIN_ROUTES'],
} as const satisfies Record<string, readonly ConfigCode[]>;
export type ConfigScene = keyof typeof CONFIG_SCENES;
