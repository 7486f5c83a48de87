import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../module-deps';

/** Routes of the members module (wired in app.ts with the shared module dependencies). */
export default async function membersRoutes(_app: FastifyInstance, _deps: ModuleDeps): Promise<void> {}
