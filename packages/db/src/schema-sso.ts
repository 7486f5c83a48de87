import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** One single sign-on attempt, from the authorization request to the session it ends in. */
export interface SsoFlowsTable {
  id: string;
  /** The OAuth `state`; unique, so the callback finds its flow by it. */
  state: string;
  nonce: string;
  code_verifier: string;
  /** SHA-256 of the browser-binding cookie: only the browser that started a flow may read or finish it. */
  binding_hash: string;
  login_type: 'person' | 'organization';
  redirect_url: string;
  source: string | null;
  status: 'pending' | 'needsMobile' | 'choosingOrg' | 'resolved' | 'collected' | 'failed';
  outcome: string | null;
  issuer: string | null;
  subject: string | null;
  person_id: string | null;
  organization_id: string | null;
  member_id: string | null;
  /** What the provider said, kept for the steps after the callback (mobile binding, organisation choice). */
  display_name: string | null;
  org_uscc: string | null;
  org_name: string | null;
  failure: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
}

/** An identity at an OpenID provider, bound to one person. */
export interface SsoLinksTable {
  issuer: string;
  subject: string;
  person_id: string;
  created_at: Timestamp;
}

export interface SsoTables {
  sso_flows: SsoFlowsTable;
  sso_links: SsoLinksTable;
}
