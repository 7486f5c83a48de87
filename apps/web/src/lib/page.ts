/** What every routed page receives: the part of its route-table entry a page may use. */
export interface RoutePageInfo {
  path: string;
  /** i18n key of the title, in the `route` namespace. */
  titleKey: string;
  parent: string | null;
}

export interface PageProps {
  route: RoutePageInfo;
}
