/** A server time (ISO 8601) in the reader's language; empty and unreadable values stay as they are. */
export function formatTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(language === 'en' ? 'en-GB' : 'zh-CN', { hour12: false });
}

/** A server time as a date only, in the reader's language (validity periods need no hour). */
export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(language === 'en' ? 'en-GB' : 'zh-CN');
}
