import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, contracts } from '@openseal/core';
import type { OperatorContext, OperatorsService } from './operators.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator of an operator-console request, set by the operator hook; null elsewhere. */
    operator: OperatorContext | null;
  }
  interface FastifyContextConfig {
    /** Opens one operator-console route (the login) to callers without an operator token. */
    operatorPublic?: boolean;
  }
}

export const MANAGE_API_PREFIX = '/manage/api/';

export function operatorTokenOf(req: FastifyRequest): string | null {
  const raw = req.headers[contracts.OPERATOR_TOKEN_HEADER];
  const token = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return token ? token : null;
}

export function requireOperator(req: FastifyRequest): OperatorContext {
  if (!req.operator) throw new AppError('operator.sessionMissing');
  return req.operator;
}

/**
 * Scopes `scope` to the operator console: every route in it must live under /manage/api/, is passed by
 * the user session hook (users hold no rights here, so a user token proves nothing) and is closed by the
 * operator token instead. Call it on an encapsulated scope before registering that scope's routes.
 */
export function useOperatorAuth(scope: FastifyInstance, operators: OperatorsService): void {
  scope.decorateRequest('operator', null);
  scope.addHook('onRoute', (route) => {
    if (!route.url.startsWith(MANAGE_API_PREFIX))
      throw new Error(`operator route outside ${MANAGE_API_PREFIX}: ${route.url}`);
    route.config = { ...(route.config as object), public: true } as typeof route.config;
  });
  scope.addHook('preHandler', async (req) => {
    const config = req.routeOptions.config as { operatorPublic?: boolean } | undefined;
    const token = operatorTokenOf(req);
    if (config?.operatorPublic === true) return;
    if (!token) throw new AppError('operator.sessionMissing');
    req.operator = await operators.resolve(req.server.db, token);
  });
}
