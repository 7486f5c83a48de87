import type { FastifyRequest } from 'fastify';
import { contracts } from '@openseal/core';
import type { z } from 'zod';

/** Response schemas for OpenAPI: the success envelope plus the catalogue error envelope. */
export function responses<T extends z.ZodType>(data: T) {
  return {
    200: contracts.envelope(data),
    '4xx': contracts.errorEnvelope,
    '5xx': contracts.errorEnvelope,
  };
}

export function clientOf(req: FastifyRequest) {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}

/** The four request headers of section 7, for the OpenAPI document. */
export const standardHeaders = {
  type: 'object',
  properties: {
    'x-access-token': { type: 'string', description: 'access token (closed routes)' },
    'x-owner-switch': { type: 'string', enum: ['PROMOTE'] },
    'x-key-serial': { type: 'string', description: 'permission UKey serial number' },
    'x-language': { type: 'string', enum: ['zh-CN', 'en'] },
  },
} as const;
