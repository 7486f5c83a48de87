import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../module-deps';

/** Routes of the realname module (wired in app.ts with the shared module dependencies). */
export default async function realnameRoutes(_app: FastifyInstance, _deps: ModuleDeps): Promise<void> {}
