import { checkOrgName, checkUscc, type ErrorKey } from '@openseal/core';

/**
 * The create-organisation form as a small state machine (spec section 5): each field is checked on blur,
 * first by the shared validator and then by the server's duplicate check; input or clearing resets it.
 */
export type FieldName = 'organizeName' | 'uscc';
export type FieldStatus = 'idle' | 'checking' | 'valid' | 'invalid';

export interface FieldState {
  value: string;
  status: FieldStatus;
  errorKey: ErrorKey | null;
}

export type OrgFormState = Record<FieldName, FieldState>;

export const EMPTY_FIELD: FieldState = { value: '', status: 'idle', errorKey: null };
export const EMPTY_FORM: OrgFormState = { organizeName: EMPTY_FIELD, uscc: EMPTY_FIELD };

export const DUPLICATE_KEY: Record<FieldName, ErrorKey> = {
  organizeName: 'org.nameExists',
  uscc: 'org.usccExists',
};

/** Codes the server may answer to creation that belong to one field. */
export const FIELD_OF_CODE: Record<number, FieldName> = {
  3001: 'organizeName',
  3002: 'organizeName',
  3003: 'organizeName',
  3004: 'uscc',
  3005: 'uscc',
  3006: 'uscc',
};

export function localCheck(
  field: FieldName,
  value: string,
): { ok: true; value: string } | { ok: false; key: ErrorKey } {
  return field === 'organizeName' ? checkOrgName(value) : checkUscc(value);
}

/** Typing (or clearing) replaces the value and forgets any earlier verdict. */
export function onInput(state: OrgFormState, field: FieldName, value: string): OrgFormState {
  return { ...state, [field]: { value, status: 'idle', errorKey: null } };
}

export function canSubmit(state: OrgFormState): boolean {
  return state.organizeName.status === 'valid' && state.uscc.status === 'valid';
}

/** Credit codes are upper case; spaces inside are never part of one. */
export function normaliseUsccInput(raw: string): string {
  return raw.toUpperCase().replace(/\s+/g, '');
}
