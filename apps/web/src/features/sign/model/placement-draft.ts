import type { contracts } from '@openseal/core';
import type { Placement } from '../api/types';
import { clampCentre, nudge, ridingSeamCentre, ridingSeamStrip, type SizeMm } from './placement-geometry';

/**
 * The placements a signer is arranging before signing: pure list operations the placement layer calls,
 * the request it becomes, and the page state kept across the stand-alone will-auth page.
 */
export type PlacementKind = contracts.PlacementKind;

export interface DraftPlacement {
  id: string;
  fileId: string;
  kind: PlacementKind;
  page: number;
  x: number;
  y: number;
  /** Fixed by the initiator: shown, never moved or removed. */
  locked: boolean;
}

/** What each kind of placement draws: the chosen seal, or the chosen personal signature. */
export interface PlacementImages {
  seal: SizeMm | null;
  signature: SizeMm | null;
}

export function imageSizeOf(kind: PlacementKind, images: PlacementImages): SizeMm | null {
  return kind === 'signature' ? images.signature : images.seal;
}

/** The box a placement occupies on one page: a riding seam shows its strip. */
export function footprint(kind: PlacementKind, image: SizeMm, pageCount: number): SizeMm {
  return kind === 'ridingSeam' ? ridingSeamStrip(image, pageCount) : image;
}

let counter = 0;
export function newPlacementId(): string {
  counter += 1;
  return `pl_${Date.now().toString(36)}_${counter}`;
}

/**
 * Adds a placement dropped at a centre: clamped onto the page; a riding seam goes to the right edge and
 * replaces the file's earlier one (a file has one seam).
 */
export function addPlacement(
  list: readonly DraftPlacement[],
  input: Omit<DraftPlacement, 'id' | 'locked'>,
  page: SizeMm,
  image: SizeMm,
  pageCount: number,
  id: string = newPlacementId(),
): DraftPlacement[] {
  const placed = place(input, page, image, pageCount);
  const rest =
    input.kind === 'ridingSeam'
      ? list.filter((p) => p.locked || p.kind !== 'ridingSeam' || p.fileId !== input.fileId)
      : list;
  return [...rest, { ...placed, id, locked: false }];
}

function place<T extends { kind: PlacementKind; x: number; y: number }>(
  p: T,
  page: SizeMm,
  image: SizeMm,
  pageCount: number,
): T {
  const centre =
    p.kind === 'ridingSeam'
      ? ridingSeamCentre(p.y, page, ridingSeamStrip(image, pageCount))
      : clampCentre({ x: p.x, y: p.y }, page, image);
  return { ...p, ...centre };
}

/** Moves a placement (drag) to a new centre on a page; locked ones stay. */
export function movePlacement(
  list: readonly DraftPlacement[],
  id: string,
  to: { page: number; x: number; y: number },
  page: SizeMm,
  image: SizeMm,
  pageCount: number,
): DraftPlacement[] {
  return list.map((p) =>
    p.id === id && !p.locked ? place({ ...p, page: to.page, x: to.x, y: to.y }, page, image, pageCount) : p,
  );
}

/** Arrow keys: one millimetre; a riding seam moves only up and down. */
export function nudgePlacement(
  list: readonly DraftPlacement[],
  id: string,
  step: { dx: number; dy: number },
  page: SizeMm,
  image: SizeMm,
  pageCount: number,
): DraftPlacement[] {
  return list.map((p) => {
    if (p.id !== id || p.locked) return p;
    if (p.kind === 'ridingSeam') return place({ ...p, y: p.y + step.dy }, page, image, pageCount);
    return { ...p, ...nudge(p, step.dx, step.dy, page, image) };
  });
}

export function removePlacement(list: readonly DraftPlacement[], id: string): DraftPlacement[] {
  return list.filter((p) => p.id !== id || p.locked);
}

/** The initiator's fixed placements, shown locked. */
export function lockedFrom(fixed: readonly Placement[]): DraftPlacement[] {
  return fixed.map((p, i) => ({
    id: `fixed_${i}`,
    fileId: p.fileId,
    kind: p.kind,
    page: p.page,
    x: p.x,
    y: p.y,
    locked: true,
  }));
}

/** The placements of the sign request (every placement, fixed ones included, as the server expects them). */
export function toRequestPlacements(list: readonly DraftPlacement[]): Placement[] {
  return list.map(({ fileId, kind, page, x, y }) => ({ fileId, kind, page, x, y }));
}

/** Which codes the request needs: a seal for seal and riding-seam placements, a signature for signatures. */
export function neededCodes(list: readonly DraftPlacement[]): { seal: boolean; signature: boolean } {
  return {
    seal: list.some((p) => p.kind === 'seal' || p.kind === 'ridingSeam'),
    signature: list.some((p) => p.kind === 'signature'),
  };
}

/** What the page keeps across the stand-alone will-auth page (saveFrontData / getFrontData). */
export interface FrontData {
  v: 1;
  flowId: string;
  taskId: string;
  sealCode: string | null;
  signatureCode: string | null;
  placements: DraftPlacement[];
}

export function encodeFrontData(data: Omit<FrontData, 'v'>): string {
  return JSON.stringify({ v: 1, ...data });
}

/** The saved state, or null when it is missing, of another version or not ours. */
export function decodeFrontData(text: string | null | undefined): FrontData | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<FrontData>;
  if (v.v !== 1 || typeof v.flowId !== 'string' || typeof v.taskId !== 'string') return null;
  if (!Array.isArray(v.placements)) return null;
  const placements = v.placements.filter(
    (p): p is DraftPlacement =>
      typeof p === 'object' &&
      p !== null &&
      typeof p.fileId === 'string' &&
      typeof p.page === 'number' &&
      typeof p.x === 'number' &&
      typeof p.y === 'number' &&
      (p.kind === 'seal' || p.kind === 'signature' || p.kind === 'ridingSeam'),
  );
  return {
    v: 1,
    flowId: v.flowId,
    taskId: v.taskId,
    sealCode: typeof v.sealCode === 'string' ? v.sealCode : null,
    signatureCode: typeof v.signatureCode === 'string' ? v.signatureCode : null,
    placements: placements.map((p) => ({
      ...p,
      id: String(p.id ?? newPlacementId()),
      locked: Boolean(p.locked),
    })),
  };
}
