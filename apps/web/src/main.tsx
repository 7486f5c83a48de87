import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { registerNavigate } from './lib/navigation';
import { createQueryClient } from './lib/query-client';
import './app/styles.css';

const queryClient = createQueryClient();
const router = createAppRouter();
registerNavigate((to, options) => void router.navigate(to, options));

const container = document.getElementById('root');
if (!container) throw new Error('missing #root');

createRoot(container).render(
  <StrictMode>
    <Providers client={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
