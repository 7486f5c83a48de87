import type { CatalogueEntry } from '../catalogue';

/** Catalogue entries of the members area; merged into the catalogue in catalogue.ts. */
export const MEMBERS_ENTRIES = [] as const satisfies readonly CatalogueEntry[];
