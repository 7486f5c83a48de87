import type { CatalogueEntry } from '../catalogue';

/** Catalogue entries of the sso area; merged into the catalogue in catalogue.ts. */
export const SSO_ENTRIES = [] as const satisfies readonly CatalogueEntry[];
