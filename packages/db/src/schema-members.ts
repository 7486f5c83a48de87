/** Tables of migration 0005-members. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the migration's owner
export interface MembersTables {}
