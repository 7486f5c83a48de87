import { describe, expect, it } from 'vitest';
import { grantableTree, isWithin, pointNames, pointsOfKeys } from './permission-tree';

describe('permission tree helpers', () => {
  const tree = [
    {
      code: 'member',
      name: 'Members',
      children: [
        { code: 'member.view', name: 'View members' },
        { code: 'member.manage', name: 'Manage members' },
      ],
    },
    { code: 'seal', name: 'Seals', children: [{ code: 'seal.view', name: 'View seals' }] },
  ];

  it('keeps the points of checked keys in tree order, without group keys or unknown keys', () => {
    expect(pointsOfKeys(tree, ['seal', 'seal.view', 'member.manage', 'nope', 'member'])).toEqual([
      'member.manage',
      'seal.view',
    ]);
    expect(pointsOfKeys(tree, [])).toEqual([]);
  });

  it('names points in tree order and keeps the code of a point the tree does not list', () => {
    expect(pointNames(tree, ['seal.view', 'gone.point', 'member.view'])).toEqual([
      'View members',
      'View seals',
      'gone.point',
    ]);
  });

  it('offers only grantable points, and drops a group left empty', () => {
    expect(grantableTree(tree, ['member.view'])).toEqual([
      { code: 'member', name: 'Members', children: [{ code: 'member.view', name: 'View members' }] },
    ]);
    expect(grantableTree(tree, [])).toEqual([]);
    expect(isWithin(['member.view'], ['member.view', 'seal.view'])).toBe(true);
    expect(isWithin(['member.view', 'member.manage'], ['member.view'])).toBe(false);
  });
});
