import type { Language } from '@openseal/core';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

export const LANGUAGES: readonly Language[] = ['zh-CN', 'en'];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

export function normaliseLanguage(raw: string | null | undefined): Language {
  return raw === 'en' ? 'en' : DEFAULT_LANGUAGE;
}

/** Section 9: the language defaults to Chinese and is read from local storage. */
export function getLanguage(): Language {
  return normaliseLanguage(readStorage(STORAGE_KEYS.language));
}

export function storeLanguage(language: Language): void {
  writeStorage(STORAGE_KEYS.language, language);
}
