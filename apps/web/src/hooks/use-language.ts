import { useQueryClient } from '@tanstack/react-query';
import type { Language } from '@openseal/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { normaliseLanguage, storeLanguage } from '../lib/language';

/** The current language and a setter that stores it and refetches server text in the new language. */
export function useLanguage(): [Language, (language: Language) => void] {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const language = normaliseLanguage(i18n.language);
  const setLanguage = useCallback(
    (next: Language) => {
      storeLanguage(next);
      void i18n.changeLanguage(next);
      document.documentElement.lang = next;
      void queryClient.invalidateQueries();
    },
    [i18n, queryClient],
  );
  return [language, setLanguage];
}
