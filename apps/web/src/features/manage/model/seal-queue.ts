/**
 * Reading the seal queues' rows (work orders and seal changes as the seals module answers them) for the
 * operator console. Rows arrive as loose records: every field is read defensively.
 */
export type SealQueue = 'sealApply' | 'sealChange';

export interface ChangeSide {
  name: string;
  sealType: string;
  title: string;
  title0: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

function sideOf(v: unknown): ChangeSide {
  const o = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  return { name: str(o.name), sealType: str(o.sealType), title: str(o.title), title0: str(o.title0) };
}

/** A change row's two sides and their names (a work order has one name on both sides). */
export function sealRowSummary(row: Record<string, unknown>): {
  before: string;
  after: string;
  beforeSide: ChangeSide;
  afterSide: ChangeSide;
} {
  if ('sealName' in row) {
    const side = {
      name: str(row.sealName),
      sealType: str(row.sealType),
      title: str(row.title),
      title0: str(row.title0),
    };
    return { before: side.name, after: side.name, beforeSide: side, afterSide: side };
  }
  const beforeSide = sideOf(row.before);
  const afterSide = sideOf(row.after);
  return { before: beforeSide.name, after: afterSide.name, beforeSide, afterSide };
}

/**
 * Whose seal a row is about: an organisation by its name, or a person's own seal (a row with no
 * organisation id). A row with an id but no name (an older server) has an empty name.
 */
export function sealRowOwner(row: Record<string, unknown>): { personal: boolean; name: string } {
  const name = str(row.organizeName).trim();
  if (name) return { personal: false, name };
  return { personal: str(row.organizeId) === '', name: '' };
}

/** One side in words: name, drawing type, and the titles when there are any. */
export function changeSideText(side: ChangeSide, drawType: (v: string) => string): string {
  const parts = [side.name || '-', drawType(side.sealType)];
  for (const title of [side.title, side.title0]) if (title) parts.push(title);
  return parts.filter(Boolean).join(' · ');
}

/** The id a decision names: the real-name flow id, the authority or seal application number, the change number. */
export function applicationIdOfRow(
  queue: 'realname' | 'authority' | SealQueue,
  row: Record<string, unknown>,
): string {
  if (queue === 'authority') return str(row.applyNo);
  if (queue === 'sealApply') return str(row.applicationId ?? row.applyNo);
  if (queue === 'sealChange') return str(row.applicationId ?? row.changeNo);
  return str(row.applicationId);
}
