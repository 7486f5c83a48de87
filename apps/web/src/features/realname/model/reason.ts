import { catalogue, type Language } from '@openseal/core';

/**
 * A failure reason as the applicant reads it. Failures the platform decides itself (too many wrong
 * amounts) carry a catalogue key and are shown in the page's language; an operator's or a verification
 * service's reason is their own text and is shown as written.
 */
export function reasonText(reason: string, language: Language): string {
  const entry = catalogue.find((e) => e.key === reason);
  if (!entry) return reason;
  return language === 'en' ? entry.en : entry.zh;
}
