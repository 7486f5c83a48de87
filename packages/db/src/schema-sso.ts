/** Tables of migration 0007-sso. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the migration's owner
export interface SsoTables {}
