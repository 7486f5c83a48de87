/** Local date and time as "YYYY-MM-DD HH:mm" (or the date alone); empty for none. */
export function formatTime(iso: string | null | undefined, dateOnly = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return dateOnly ? date : `${date} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A long hash shortened for a table cell: the first and last eight characters. */
export function shortHash(hash: string | null | undefined): string {
  if (!hash) return '';
  return hash.length > 20 ? `${hash.slice(0, 8)}…${hash.slice(-8)}` : hash;
}

/** The address of a flow's detail page. */
export function detailPath(flowId: string): string {
  return `/signService/signRecordDetail?flowId=${encodeURIComponent(flowId)}`;
}

/** The address that opens the signing panel of a task in signByMe. */
export function signTaskPath(flowId: string, taskId: string): string {
  return `/signService/signByMe?flowId=${encodeURIComponent(flowId)}&taskId=${encodeURIComponent(taskId)}`;
}
