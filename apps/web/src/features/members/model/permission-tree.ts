/**
 * The function-permission tree as the server answers it (groups of points). The web app keeps no tree of
 * its own: these helpers only read the one it is given.
 */
export interface PermissionGroup {
  code: string;
  name: string;
  children: readonly { code: string; name: string }[];
}

/**
 * The points among checked tree keys, in tree order. A checkable tree reports whole groups too (and
 * would report half-checked ones in strict mode); a role stores points only, so group keys and anything
 * the tree does not know are dropped.
 */
export function pointsOfKeys(
  tree: readonly PermissionGroup[],
  keys: readonly (string | number | bigint)[],
): string[] {
  const wanted = new Set(keys.map(String));
  return tree.flatMap((g) => g.children.filter((p) => wanted.has(p.code)).map((p) => p.code));
}

/** Display names of points, in tree order; a point the tree does not list keeps its code. */
export function pointNames(tree: readonly PermissionGroup[], points: readonly string[]): string[] {
  const names = new Map(tree.flatMap((g) => g.children.map((p) => [p.code, p.name] as const)));
  const known = pointsOfKeys(tree, points).map((p) => names.get(p)!);
  const unknown = points.filter((p) => !names.has(p));
  return [...known, ...unknown];
}

/**
 * The tree cut down to the points the caller may grant (the server's `grantable` list): a role editor
 * offers nothing else, and a group with nothing left goes.
 */
export function grantableTree(
  tree: readonly PermissionGroup[],
  grantable: readonly string[],
): PermissionGroup[] {
  const held = new Set(grantable);
  return tree
    .map((g) => ({ ...g, children: g.children.filter((p) => held.has(p.code)) }))
    .filter((g) => g.children.length > 0);
}

/** Whether every point of a role is one the caller may grant: only such a role is theirs to edit or delete. */
export function isWithin(points: readonly string[], grantable: readonly string[]): boolean {
  const held = new Set(grantable);
  return points.every((p) => held.has(p));
}
