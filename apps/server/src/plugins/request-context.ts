import fp from 'fastify-plugin';
import { AppError, HEADERS, OWNER_SWITCH_VALUE, type Language } from '@openseal/core';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    keySerial: string | null;
  }
}

/**
 * The request headers of spec section 7: language (zh-CN default, en), owner switch (must be PROMOTE
 * when sent), and the permission key serial number (kept for UKey-gated calls).
 */
export default fp(
  async (app) => {
    app.decorateRequest('lang', 'zh-CN');
    app.decorateRequest('keySerial', null);
    app.addHook('onRequest', async (req) => {
      const raw = req.headers[HEADERS.language];
      const lang = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
      req.lang = lang === 'en' || lang === 'en-us' || lang === 'en-gb' ? 'en' : 'zh-CN';
      const serial = req.headers[HEADERS.keySerial];
      req.keySerial = typeof serial === 'string' && serial.length > 0 ? serial.slice(0, 128) : null;
      const owner = req.headers[HEADERS.ownerSwitch];
      if (owner !== undefined && owner !== OWNER_SWITCH_VALUE) {
        throw new AppError('request.badHeader', {
          details: { header: HEADERS.ownerSwitch, expected: OWNER_SWITCH_VALUE },
        });
      }
    });
  },
  { name: 'request-context' },
);
