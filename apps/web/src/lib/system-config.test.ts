import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_CONFIG, isPlatformRealName, parseSystemConfig } from './system-config';

const v = (code: string, value: string | null, fileKeyBase64: string | null = null) => ({
  code,
  value,
  fileKeyBase64,
});

describe('system configuration', () => {
  it('keeps the defaults when nothing is configured', () => {
    expect(parseSystemConfig([])).toEqual(DEFAULT_SYSTEM_CONFIG);
    // PSN_EP_SWITCH absent means the personal/organisation switch is on.
    expect(DEFAULT_SYSTEM_CONFIG.personOrgSwitch).toBe(true);
  });

  it('reads names, images, flags and lists', () => {
    const config = parseSystemConfig([
      v('SYS_NAME_PUBLIC', ' 某市电子印章平台 '),
      v('TOPIC_LOGO', 'logo.png', 'data:image/png;base64,AAAA'),
      v('HOME_BANNER', JSON.stringify([{ title: 'A', subtitle: 'a' }, { title: '' }, 'x', { title: 'B' }])),
      v('MINOR_CONFIG', '["openPlatform","applicationCenter"]'),
      v('DATA_BOARD_ENABLED', 'true'),
      v('PSN_EP_SWITCH', 'false'),
      v('LEGAL_CREATE_DISABLE', 'true'),
      v('DISPLAY_ANNOUNCEMENT', 'true'),
      v('ANNOUNCEMENT_CONTENT', '通知'),
      v('PRESENTER_CONTRACT', 'true'),
      v('HELP_DOC_URL', '/docs'),
    ]);
    expect(config.systemName).toBe('某市电子印章平台');
    expect(config.logo).toBe('data:image/png;base64,AAAA');
    expect(config.banners).toEqual([
      { title: 'A', subtitle: 'a' },
      { title: 'B', subtitle: '' },
    ]);
    expect(config.hiddenNav).toEqual(['openPlatform', 'applicationCenter']);
    expect(config.dataBoardEnabled).toBe(true);
    expect(config.personOrgSwitch).toBe(false);
    expect(config.legalCreateDisable).toBe(true);
    expect(config.displayAnnouncement).toBe(true);
    expect(config.announcementContent).toBe('通知');
    expect(config.presenterContract).toBe(true);
    expect(config.helpDocUrl).toBe('/docs');
  });

  it('survives malformed values', () => {
    const config = parseSystemConfig([v('HOME_BANNER', '{not json'), v('MINOR_CONFIG', 'home, verifySign')]);
    expect(config.banners).toEqual([]);
    expect(config.hiddenNav).toEqual(['home', 'verifySign']);
  });

  it('decides the platform real-name way from REALNAME_WAY, then DEFAULT_LOGIN', () => {
    expect(isPlatformRealName(DEFAULT_SYSTEM_CONFIG)).toBe(true);
    expect(isPlatformRealName({ ...DEFAULT_SYSTEM_CONFIG, realNameWay: 'external' })).toBe(false);
    expect(isPlatformRealName({ ...DEFAULT_SYSTEM_CONFIG, defaultLogin: 'sso' })).toBe(false);
  });
});
