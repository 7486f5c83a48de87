/** Tables of migration 0004-realname. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the migration's owner
export interface RealnameTables {}
