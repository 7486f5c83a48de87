import { describe, expect, it } from 'vitest';
import {
  addPlacement,
  decodeFrontData,
  encodeFrontData,
  lockedFrom,
  movePlacement,
  neededCodes,
  nudgePlacement,
  removePlacement,
  toRequestPlacements,
  type DraftPlacement,
} from './placement-draft';

const A4 = { widthMm: 210, heightMm: 297 };
const SEAL = { widthMm: 40, heightMm: 40 };

describe('placement draft', () => {
  it('adds, moves, nudges and removes placements, clamped onto the page', () => {
    let list: DraftPlacement[] = [];
    list = addPlacement(list, { fileId: 'f1', kind: 'seal', page: 1, x: 5, y: 5 }, A4, SEAL, 2, 'a');
    expect(list).toEqual([{ id: 'a', fileId: 'f1', kind: 'seal', page: 1, x: 20, y: 20, locked: false }]);
    list = movePlacement(list, 'a', { page: 2, x: 100, y: 120 }, A4, SEAL, 2);
    expect(list[0]).toMatchObject({ page: 2, x: 100, y: 120 });
    list = nudgePlacement(list, 'a', { dx: 1, dy: 0 }, A4, SEAL, 2);
    expect(list[0]).toMatchObject({ x: 101, y: 120 });
    list = removePlacement(list, 'a');
    expect(list).toEqual([]);
  });

  it('keeps one riding seam per file at the right edge; nudging moves it only up and down', () => {
    let list: DraftPlacement[] = [];
    list = addPlacement(
      list,
      { fileId: 'f1', kind: 'ridingSeam', page: 1, x: 10, y: 100 },
      A4,
      SEAL,
      4,
      's1',
    );
    expect(list[0]).toMatchObject({ x: 205, y: 100 });
    list = addPlacement(
      list,
      { fileId: 'f1', kind: 'ridingSeam', page: 2, x: 10, y: 150 },
      A4,
      SEAL,
      4,
      's2',
    );
    expect(list.map((p) => p.id)).toEqual(['s2']);
    list = addPlacement(
      list,
      { fileId: 'f2', kind: 'ridingSeam', page: 1, x: 10, y: 150 },
      A4,
      SEAL,
      4,
      's3',
    );
    expect(list).toHaveLength(2);
    list = nudgePlacement(list, 's2', { dx: 1, dy: 0 }, A4, SEAL, 4);
    expect(list[0]).toMatchObject({ x: 205, y: 150 });
    list = nudgePlacement(list, 's2', { dx: 0, dy: 1 }, A4, SEAL, 4);
    expect(list[0]).toMatchObject({ y: 151 });
  });

  it('never moves or removes the initiator’s fixed placements', () => {
    const fixed = lockedFrom([{ fileId: 'f1', kind: 'seal', page: 1, x: 50, y: 60 }]);
    expect(fixed[0]!.locked).toBe(true);
    expect(movePlacement(fixed, fixed[0]!.id, { page: 1, x: 1, y: 1 }, A4, SEAL, 1)).toEqual(fixed);
    expect(removePlacement(fixed, fixed[0]!.id)).toEqual(fixed);
    expect(toRequestPlacements(fixed)).toEqual([{ fileId: 'f1', kind: 'seal', page: 1, x: 50, y: 60 }]);
  });

  it('says which codes the request needs', () => {
    const seal = lockedFrom([{ fileId: 'f', kind: 'ridingSeam', page: 1, x: 0, y: 50 }]);
    const sig = lockedFrom([{ fileId: 'f', kind: 'signature', page: 1, x: 50, y: 50 }]);
    expect(neededCodes(seal)).toEqual({ seal: true, signature: false });
    expect(neededCodes(sig)).toEqual({ seal: false, signature: true });
    expect(neededCodes([])).toEqual({ seal: false, signature: false });
  });

  it('round-trips the page state kept across the will-auth page, and refuses anything else', () => {
    const placements = lockedFrom([{ fileId: 'f1', kind: 'seal', page: 1, x: 50, y: 60 }]);
    const text = encodeFrontData({
      flowId: 'fl',
      taskId: 'tk',
      sealCode: 'S1',
      signatureCode: null,
      placements,
    });
    expect(decodeFrontData(text)).toEqual({
      v: 1,
      flowId: 'fl',
      taskId: 'tk',
      sealCode: 'S1',
      signatureCode: null,
      placements,
    });
    expect(decodeFrontData(null)).toBeNull();
    expect(decodeFrontData('not json')).toBeNull();
    expect(decodeFrontData(JSON.stringify({ v: 2, flowId: 'a', taskId: 'b', placements: [] }))).toBeNull();
    const junk = JSON.stringify({ v: 1, flowId: 'a', taskId: 'b', placements: [{ kind: 'stamp' }] });
    expect(decodeFrontData(junk)?.placements).toEqual([]);
  });
});
