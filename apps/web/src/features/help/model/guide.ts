/**
 * The user guide ("帮助文档"): chapters of paragraphs, numbered steps, tips and screenshots. The
 * screenshots are the app's own, taken by the browser test e2e/help-screenshots.test.ts into
 * apps/web/public/help/<lang>/<name>.jpg (`npm run help:shots` rewrites them).
 */
export type GuideBlock =
  | { p: string }
  | { steps: string[] }
  | { tip: string }
  | { shot: GuideShot; caption: string }
  | { link: { text: string; href: string } };

export interface GuideChapter {
  id: GuideChapterId;
  title: string;
  summary: string;
  blocks: GuideBlock[];
}

export const GUIDE_CHAPTERS = ['start', 'realName', 'seals', 'signing', 'verifying', 'ukeys', 'faq'] as const;
export type GuideChapterId = (typeof GUIDE_CHAPTERS)[number];

/** Every screenshot the guide shows; the browser test takes each, in both languages. */
export const GUIDE_SHOTS = [
  'login',
  'home',
  'realname-person',
  'seal-list',
  'seal-apply',
  'sign-upload',
  'sign-place',
  'sign-will',
  'sign-list',
  'verify-result',
  'ukey-manage',
  'phone-home',
] as const;
export type GuideShot = (typeof GUIDE_SHOTS)[number];

export type GuideLanguage = 'zh-CN' | 'en';

/** Where a screenshot is served from (the web app's public folder). */
export function shotUrl(lang: GuideLanguage, shot: GuideShot): string {
  return `/help/${lang}/${shot}.jpg`;
}

/** The chapter a `?chapter=` value names, else the first. */
export function chapterOf(value: string | null): GuideChapterId {
  return (GUIDE_CHAPTERS as readonly string[]).includes(value ?? '') ? (value as GuideChapterId) : 'start';
}
