import type { CatalogueEntry } from '../catalogue';

/** Catalogue entries of the operators area; merged into the catalogue in catalogue.ts. */
export const OPERATORS_ENTRIES = [] as const satisfies readonly CatalogueEntry[];
