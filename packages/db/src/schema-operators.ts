/** Tables of migration 0006-operators. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the migration's owner
export interface OperatorsTables {}
