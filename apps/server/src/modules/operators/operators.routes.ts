import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../module-deps';

/** Routes of the operators module (wired in app.ts with the shared module dependencies). */
export default async function operatorsRoutes(_app: FastifyInstance, _deps: ModuleDeps): Promise<void> {}
