/**
 * Which actions the UKey pages offer on a row (spec sections 5 and 6): only keys bound on this platform
 * may be edited or unbound, only by someone who manages seals; applications follow the import state
 * machine of the server (revoke before making or after a failure, retry after a failure).
 */
import type { contracts } from '@openseal/core';

type ApplyStatus = contracts.UkeyApplyStatus;

export type KeyAction = 'certProperties' | 'edit' | 'unbind';

export interface KeyRow {
  status: (typeof contracts.UKEY_BINDING_STATUS)[number];
}

/** A key bound here (status `bound`) can be edited and unbound by a seal manager; every key shows its certificate. */
export function keyRowActions(key: KeyRow, can: { manage: boolean }): KeyAction[] {
  const actions: KeyAction[] = ['certProperties'];
  if (key.status === 'bound' && can.manage) actions.push('edit', 'unbind');
  return actions;
}

export type ApplyAction = 'detail' | 'make' | 'revoke';

/** `make` opens the import page (to import, importing or failed); `revoke` mirrors TRANSITIONS.revoke. */
export function applyRowActions(status: ApplyStatus, can: { receive: boolean }): ApplyAction[] {
  const actions: ApplyAction[] = ['detail'];
  if (!can.receive) return actions;
  if (status === 'toImport' || status === 'importing' || status === 'failure') actions.push('make');
  if (status === 'toImport' || status === 'failure') actions.push('revoke');
  return actions;
}

/** Colours of the import states (spec section 4: to import, importing, success, failure; and revoked). */
export const APPLY_STATUS_COLOUR: Record<ApplyStatus, string> = {
  toImport: 'gold',
  importing: 'blue',
  success: 'green',
  failure: 'red',
  revoked: 'default',
};

/** Colours of a certificate's status as the server reports it for a key. */
export const CERT_STATUS_COLOUR: Record<string, string> = {
  good: 'green',
  hold: 'orange',
  revoked: 'red',
  expired: 'volcano',
  notYetValid: 'gold',
  unknown: 'default',
};

const DAY_MS = 86_400_000;

/** Whole days until `notAfter` (negative once past): the renewal window opens at 30 days (spec section 5). */
export function daysLeft(notAfter: string, now: Date): number {
  return Math.floor((Date.parse(notAfter) - now.getTime()) / DAY_MS);
}

export function isRenewalDue(notAfter: string, now: Date): boolean {
  const d = daysLeft(notAfter, now);
  return d >= 0 && d <= 30;
}

/** The kind of key an application makes, for the tab it lands in. */
export function tabOfApplyType(type: contracts.UkeyApplyType): contracts.UkeyKind {
  return type === 'ukey_online' ? 'online' : 'offline';
}

/** Replacements and renewals name the bound signing key they are for. */
export function needsTargetKey(type: contracts.UkeyApplyType): boolean {
  return type === 'ukey_offline_replace' || type === 'ukey_offline_renewal';
}

/** Valid page tabs of /sealService/ukeyManage; anything else opens the signing keys (offline). */
export type ManageTab = 'online' | 'offline' | 'apply';
export function tabOf(raw: string | null): ManageTab {
  return raw === 'online' || raw === 'apply' ? raw : 'offline';
}
