import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../module-deps';

/** Routes of the sso module (wired in app.ts with the shared module dependencies). */
export default async function ssoRoutes(_app: FastifyInstance, _deps: ModuleDeps): Promise<void> {}
