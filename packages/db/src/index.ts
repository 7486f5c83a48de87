export * from './schema';
export * from './connection';
export { PGliteDialect } from './pglite-dialect';
