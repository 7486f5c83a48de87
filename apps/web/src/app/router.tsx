import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoading } from '../components/page-loading';
import { RootLayout } from './layout/root-layout';
import { SectionLayout } from './layout/section-layout';
import { lazyPage } from './lazy-page';
import type { RouteHandle } from './page-props';
import { PAGES } from './page-registry';
import { RouteError } from './pages/route-error';
import { CONSOLE_ROUTES, ROUTES, type ConsolePageKey, type ResolvedRoute } from './route-table';

/** The operator console's pages (its own chunks, outside the user layout). */
const CONSOLE_PAGES: Record<ConsolePageKey, LazyExoticComponent<ComponentType>> = {
  manageLogin: lazyPage(() =>
    import('../features/manage/pages/manage-login-page').then((m) => m.ManageLoginPage),
  ),
  manageConsole: lazyPage(() =>
    import('../features/manage/pages/manage-console-page').then((m) => m.ManageConsolePage),
  ),
};

const PluginRoutePage = lazyPage(() =>
  import('../features/plugin-routes/pages/plugin-route-page').then((m) => m.PluginRoutePage),
);
const MobileShell = lazyPage(() => import('./layout/mobile-shell').then((m) => m.MobileShell));

function PageHost({ route }: { route: ResolvedRoute }) {
  const Page = PAGES[route.page];
  return (
    <Suspense fallback={<PageLoading />}>
      <Page route={route} />
    </Suspense>
  );
}

function toRouteObject(route: ResolvedRoute): RouteObject {
  const handle: RouteHandle = { route };
  if (route.section) {
    return {
      path: route.path,
      element: <SectionLayout section={route} />,
      handle,
      children: [
        ...(route.redirect
          ? [{ index: true, element: <Navigate to={route.redirect} replace />, handle }]
          : []),
        ...route.children.map(toRouteObject),
      ],
    };
  }
  return { path: route.path, element: <PageHost route={route} />, handle };
}

function consoleRouteObject({ path, page }: (typeof CONSOLE_ROUTES)[number]): RouteObject {
  const Page = CONSOLE_PAGES[page];
  return {
    path,
    errorElement: <RouteError />,
    element: (
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    ),
  };
}

export function buildRouteObjects(): RouteObject[] {
  return [
    ...CONSOLE_ROUTES.map(consoleRouteObject),
    {
      element: <RootLayout />,
      errorElement: <RouteError />,
      children: [
        ...ROUTES.map(toRouteObject),
        {
          path: '/h5/*',
          element: (
            <Suspense fallback={<PageLoading />}>
              <MobileShell />
            </Suspense>
          ),
        },
        {
          path: '*',
          element: (
            <Suspense fallback={<PageLoading />}>
              <PluginRoutePage />
            </Suspense>
          ),
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}
