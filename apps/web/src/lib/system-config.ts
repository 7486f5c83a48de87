import { CONFIG, type ConfigScene } from '@openseal/core';
import { apiGet } from './api-client';
import type { ConfigCodeValue, ConfigValues } from './contracts';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/**
 * The public system configuration (spec sections 1 and 3) as typed values. Fetched without login from
 * GET /v1/organizes/dynamicConfig; when that fails, the copy cached from the last success is used, then
 * built-in defaults (spec section 7).
 */
export interface BannerItem {
  title: string;
  subtitle: string;
  image?: string;
}

export type NavKey =
  'home' | 'sealService' | 'signService' | 'verifySign' | 'openPlatform' | 'applicationCenter';

export interface SystemConfig {
  systemName: string | null;
  logo: string | null;
  banners: BannerItem[];
  hiddenNav: string[];
  helpDocUrl: string | null;
  dataBoardEnabled: boolean;
  realNameBannerVerified: string | null;
  realNameBannerUnverified: string | null;
  /** PSN_EP_SWITCH: absent means on. */
  personOrgSwitch: boolean;
  legalCreateDisable: boolean;
  displayAnnouncement: boolean;
  announcementContent: string | null;
  personSsoSpace: string[];
  presenterContract: boolean;
  defaultLogin: string | null;
  realNameWay: string | null;
  operationGuide: string | null;
}

export const DEFAULT_SYSTEM_CONFIG: SystemConfig = {
  systemName: null,
  logo: null,
  banners: [],
  hiddenNav: [],
  helpDocUrl: null,
  dataBoardEnabled: false,
  realNameBannerVerified: null,
  realNameBannerUnverified: null,
  personOrgSwitch: true,
  legalCreateDisable: false,
  displayAnnouncement: false,
  announcementContent: null,
  personSsoSpace: ['person'],
  presenterContract: false,
  defaultLogin: null,
  realNameWay: null,
  operationGuide: null,
};

function text(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

function flag(value: string | null | undefined, whenAbsent: boolean): boolean {
  const v = value?.trim().toLowerCase();
  if (!v) return whenAbsent;
  return v === 'true' || v === '1' || v === 'yes' || v === 'on';
}

function jsonList(value: string | null | undefined): unknown[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function stringList(value: string | null | undefined): string[] {
  const list = jsonList(value).filter((x): x is string => typeof x === 'string');
  if (list.length > 0 || !value) return list;
  // Tolerate a plain comma-separated list.
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('['));
}

function banners(value: string | null | undefined): BannerItem[] {
  const out: BannerItem[] = [];
  for (const item of jsonList(value)) {
    if (typeof item !== 'object' || item === null) continue;
    const rec = item as Record<string, unknown>;
    if (typeof rec.title !== 'string' || !rec.title.trim()) continue;
    out.push({
      title: rec.title,
      subtitle: typeof rec.subtitle === 'string' ? rec.subtitle : '',
      ...(typeof rec.image === 'string' && rec.image ? { image: rec.image } : {}),
    });
  }
  return out;
}

/** Turn the code/value list of one or more scenes into typed settings; missing codes keep their defaults. */
export function parseSystemConfig(values: readonly ConfigCodeValue[]): SystemConfig {
  const byCode = new Map(values.map((v) => [v.code, v]));
  const has = (code: string) => byCode.has(code);
  const value = (code: string) => byCode.get(code)?.value ?? null;
  const d = DEFAULT_SYSTEM_CONFIG;
  return {
    systemName: text(value(CONFIG.SYS_NAME_PUBLIC)) ?? d.systemName,
    logo: text(byCode.get(CONFIG.TOPIC_LOGO)?.fileKeyBase64) ?? text(value(CONFIG.TOPIC_LOGO)) ?? d.logo,
    banners: has(CONFIG.HOME_BANNER) ? banners(value(CONFIG.HOME_BANNER)) : d.banners,
    hiddenNav: has(CONFIG.MINOR_CONFIG) ? stringList(value(CONFIG.MINOR_CONFIG)) : d.hiddenNav,
    helpDocUrl: text(value(CONFIG.HELP_DOC_URL)),
    dataBoardEnabled: flag(value(CONFIG.DATA_BOARD_ENABLED), false),
    realNameBannerVerified: text(value(CONFIG.REALNAME_BANNER_VERIFIED)),
    realNameBannerUnverified: text(value(CONFIG.REALNAME_BANNER_UNVERIFIED)),
    personOrgSwitch: flag(value(CONFIG.PSN_EP_SWITCH), true),
    legalCreateDisable: flag(value(CONFIG.LEGAL_CREATE_DISABLE), false),
    displayAnnouncement: flag(value(CONFIG.DISPLAY_ANNOUNCEMENT), false),
    announcementContent: text(value(CONFIG.ANNOUNCEMENT_CONTENT)),
    personSsoSpace: has(CONFIG.PERSON_SSO_SPACE)
      ? stringList(value(CONFIG.PERSON_SSO_SPACE))
      : d.personSsoSpace,
    presenterContract: flag(value(CONFIG.PRESENTER_CONTRACT), false),
    defaultLogin: text(value(CONFIG.DEFAULT_LOGIN)),
    realNameWay: text(value(CONFIG.REALNAME_WAY)),
    operationGuide: text(value(CONFIG.OPERATION_GUIDE)),
  };
}

/** Whether real-name happens on this platform (the action shown next to unverified organisations). */
export function isPlatformRealName(config: SystemConfig): boolean {
  const way = config.realNameWay ?? config.defaultLogin ?? 'platform';
  return way === 'platform';
}

function cacheKey(scene: ConfigScene): string {
  return `${STORAGE_KEYS.systemConfigPrefix}${scene}`;
}

function readCached(scene: ConfigScene): ConfigCodeValue[] | null {
  const raw = readStorage(cacheKey(scene));
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as ConfigCodeValue[]) : null;
  } catch {
    return null;
  }
}

/** Fetch one scene's values; on failure fall back to the cached copy, then to none (defaults apply). */
export async function loadSceneValues(scene: ConfigScene): Promise<ConfigCodeValue[]> {
  try {
    const data = await apiGet<ConfigValues>(
      '/v1/organizes/dynamicConfig',
      { sceneKey: scene },
      { silent: true },
    );
    const values = Array.isArray(data?.configCodeValueBos) ? data.configCodeValueBos : [];
    writeStorage(cacheKey(scene), JSON.stringify(values));
    return values;
  } catch {
    return readCached(scene) ?? [];
  }
}
