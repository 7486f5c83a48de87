import { AppError, contracts, type ErrorKey } from '@openseal/core';
import type { Db } from '@openseal/db';
import { customRolePoints } from '../modules/members/members.repository';
import type { AuthContext } from '../modules/session/session.service';

type Point = contracts.PermissionPoint;
const { BUILTIN_ROLE_POINTS, PERMISSION_POINTS, PERMISSION_SCENES, isReservedPoint } = contracts;

/** A caller acting inside an organisation. */
export type OrgContext = AuthContext & { organizationId: string; memberId: string };

/** The catalogued refusal for a missing point; points without a message of their own get "no permission". */
const DENIED: Partial<Record<Point, ErrorKey>> = {
  'member.manage': 'perm.memberManage',
  'member.view': 'perm.memberManage',
  'role.manage': 'perm.memberManage',
  'authority.review': 'perm.memberManage',
  'seal.manage': 'perm.sealManage',
  'seal.claim': 'perm.sealClaim',
  'ukey.receive': 'perm.ukeyClaim',
  'sign.manage': 'perm.signAdmin',
};

/** Organisation-only functions a person never holds in the personal space. */
const ORG_ONLY = new Set<string>(['member.view', 'member.manage', 'role.manage', 'authority.review']);

function isBuiltIn(code: string): code is keyof typeof BUILTIN_ROLE_POINTS {
  return Object.hasOwn(BUILTIN_ROLE_POINTS, code);
}

/**
 * The points a set of role codes grants in an organisation; every member holds staff's points. A reserved
 * point (seal claiming) comes only with its built-in role: one stored in a custom role counts for nothing.
 */
export async function pointsOfRoles(
  db: Db,
  organizationId: string,
  roles: readonly string[],
): Promise<Set<string>> {
  const points = new Set<string>(BUILTIN_ROLE_POINTS.staff);
  const custom: string[] = [];
  for (const r of roles) {
    if (isBuiltIn(r)) for (const p of BUILTIN_ROLE_POINTS[r]) points.add(p);
    else custom.push(r);
  }
  for (const p of await customRolePoints(db, organizationId, custom)) if (!isReservedPoint(p)) points.add(p);
  return points;
}

/** The points among `points` that the caller does not hold, in the order given. */
export function lackingPoints(held: ReadonlySet<string>, points: Iterable<string>): string[] {
  return [...new Set(points)].filter((p) => !held.has(p));
}

/**
 * What a caller may put into a role or grant to a member: their own points, never a reserved one. The legal
 * representative and the super administrator hold every grantable point.
 */
export function grantablePoints(held: ReadonlySet<string>): string[] {
  return [...held].filter((p) => !isReservedPoint(p)).sort();
}

/**
 * The caller's points. `ctx.roles` is read from the member row on every request, so a role change applies
 * at once. A person in the personal space acts for themselves and holds every non-organisation point.
 */
export async function callerPoints(db: Db, ctx: AuthContext): Promise<Set<string>> {
  if (!ctx.organizationId) return new Set(PERMISSION_POINTS.filter((p) => !ORG_ONLY.has(p)));
  return pointsOfRoles(db, ctx.organizationId, ctx.roles);
}

export function requireOrg(ctx: AuthContext): OrgContext {
  if (!ctx.organizationId || !ctx.memberId) throw new AppError('perm.personNotAllowed');
  return ctx as OrgContext;
}

/**
 * Real name first (spec section 6): the platform's functions (seals, signing, the open platform) serve
 * only a real-named person, and in an organisation space only a real-named organisation. The user centre,
 * where real names are proven and members managed, stays open. Answers -999, on which the web app shows
 * its "verify first" dialog.
 */
export function requireRealName(ctx: AuthContext): void {
  if (!ctx.realName.person || ctx.realName.organization === false) throw new AppError('realName.required');
}

export async function hasOrgPermission(db: Db, ctx: AuthContext, point: Point): Promise<boolean> {
  if (!ctx.organizationId) return false;
  return (await callerPoints(db, ctx)).has(point);
}

/** The server-side check every organisation function makes: a member of the current organisation holding `point`. */
export async function requireOrgPermission(db: Db, ctx: AuthContext, point: Point): Promise<OrgContext> {
  const org = requireOrg(ctx);
  if (!(await callerPoints(db, org)).has(point)) throw new AppError(DENIED[point] ?? 'perm.none');
  return org;
}

export function isScene(code: string): code is contracts.PermissionScene {
  return Object.hasOwn(PERMISSION_SCENES, code);
}

/** Scene permission (spec 6): organisations by their points; persons are always allowed. */
export async function sceneAllowed(db: Db, ctx: AuthContext, sceneCode: string): Promise<boolean> {
  if (!isScene(sceneCode)) throw new AppError('perm.sceneUnknown');
  if (!ctx.organizationId) return true;
  return (await callerPoints(db, ctx)).has(PERMISSION_SCENES[sceneCode]);
}

/** Like sceneAllowed, but refuses with the scene's catalogued code. */
export async function requireScene(db: Db, ctx: AuthContext, sceneCode: string): Promise<void> {
  if (await sceneAllowed(db, ctx, sceneCode)) return;
  const point = PERMISSION_SCENES[sceneCode as contracts.PermissionScene];
  throw new AppError(DENIED[point] ?? 'perm.none');
}
