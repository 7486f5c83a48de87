import type { CatalogueEntry } from '../catalogue';

/** Catalogue entries of the realname area; merged into the catalogue in catalogue.ts. */
export const REALNAME_ENTRIES = [] as const satisfies readonly CatalogueEntry[];
