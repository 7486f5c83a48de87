import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { handleApiError } from './api-error-handler';
import { isApiError } from './api-client';

/**
 * Download addresses (seal pictures in lists and details) live five minutes on the server
 * (DOWNLOAD_URL_TTL_SECONDS) and are checked again when used: the queries that carry them are fetched
 * again before they expire, so a picture shown later still loads. Files are downloaded through an
 * address asked for at click time.
 */
export const ADDRESS_REFRESH_MS = 4 * 60_000;

/**
 * One query client for the app. Every failed query or mutation goes through the one error handler, so
 * toasts and session handling follow spec section 8 wherever the request came from.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => handleApiError(error) }),
    mutationCache: new MutationCache({ onError: (error) => handleApiError(error) }),
    defaultOptions: {
      queries: {
        // Retry only a dropped connection once; a coded answer from the server is final.
        retry: (count, error) => isApiError(error) && error.kind === 'network' && count < 1,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
