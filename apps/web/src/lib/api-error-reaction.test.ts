import { LIMITS, SESSION_INVALID_CODES } from '@openseal/core';
import { describe, expect, it } from 'vitest';
import { buildUrl, isSuccessCode } from './api-client';
import { decideErrorReaction, type FailedRequest } from './api-error-reaction';

const api = (code: number, flags: FailedRequest['flags'] = {}, message = 'server says'): FailedRequest => ({
  kind: 'api',
  code,
  message,
  flags,
});

describe('error reactions of spec section 8', () => {
  it('ends the session on every session-invalid code: toast 1.5 s, clear, then login', () => {
    expect(SESSION_INVALID_CODES).toEqual([102, 201, 202, 225, 310, 312, 1097, 1099, 90001, 150001]);
    for (const code of SESSION_INVALID_CODES) {
      expect(decideErrorReaction(api(code), 'zh-CN')).toEqual({
        toast: { text: 'server says', durationMs: LIMITS.expiryToastMs },
        clearSession: true,
        goLoginAfterMs: LIMITS.expiryToastMs,
        goHomeAfterMs: null,
        realNameDialog: false,
      });
    }
  });

  it('only jumps to login for a request marked notLogin', () => {
    const r = decideErrorReaction(api(201, { notLogin: true }), 'zh-CN');
    expect(r.toast).toBeNull();
    expect(r.clearSession).toBe(false);
    expect(r.goLoginAfterMs).toBe(0);
  });

  it('toasts and fails on 305 and on other codes, with the server message', () => {
    expect(decideErrorReaction(api(305), 'zh-CN').toast?.text).toBe('server says');
    const other = decideErrorReaction(api(3003, {}, '该组织名称已存在'), 'zh-CN');
    expect(other.toast?.text).toBe('该组织名称已存在');
    expect(other.clearSession).toBe(false);
    expect(other.goLoginAfterMs).toBeNull();
  });

  it('falls back to the catalogue text when the server sent no message', () => {
    expect(decideErrorReaction(api(2002, {}, ''), 'en').toast?.text).toBe('The verification code is wrong');
    expect(decideErrorReaction(api(987654, {}, ''), 'zh-CN').toast?.text).toBe('服务器异常，请稍后重试');
  });

  it('opens the real-name dialog on -999 without a toast', () => {
    const r = decideErrorReaction(api(-999), 'zh-CN');
    expect(r.realNameDialog).toBe(true);
    expect(r.toast).toBeNull();
  });

  it('goes to the site origin one second after a 402 toast unless the request says noGoHome', () => {
    expect(decideErrorReaction(api(402), 'zh-CN').goHomeAfterMs).toBe(LIMITS.redirectAfter402Ms);
    const stay = decideErrorReaction(api(402, { noGoHome: true }), 'zh-CN');
    expect(stay.goHomeAfterMs).toBeNull();
    expect(stay.toast).not.toBeNull();
  });

  it('suppresses toasts for silent requests but still ends an invalid session', () => {
    expect(decideErrorReaction(api(3003, { silent: true }), 'zh-CN').toast).toBeNull();
    const session = decideErrorReaction(api(202, { silent: true }), 'zh-CN');
    expect(session.toast).toBeNull();
    expect(session.clearSession).toBe(true);
    expect(session.goLoginAfterMs).toBe(0);
  });

  it('shows the generic network error for a failed connection, not for an abort', () => {
    const net = (kind: FailedRequest['kind']) =>
      decideErrorReaction({ kind, code: null, message: kind, flags: {} }, 'zh-CN');
    expect(net('network').toast?.text).toBe('网络异常');
    expect(net('abort').toast).toBeNull();
    expect(net('timeout').toast?.text).toBe('接口超时');
  });
});

describe('transport helpers', () => {
  it('treats the success codes and the pass-through codes as data', () => {
    for (const code of [0, 100, 1000, 120033, 120034]) expect(isSuccessCode(code), String(code)).toBe(true);
    for (const code of [305, 402, -999, 201, 1]) expect(isSuccessCode(code), String(code)).toBe(false);
  });

  it('builds query strings without empty values', () => {
    expect(buildUrl('/v1/organizes/duplicateCheck', { organizeName: '测试 (中国)', uscc: undefined })).toBe(
      '/v1/organizes/duplicateCheck?organizeName=%E6%B5%8B%E8%AF%95+%28%E4%B8%AD%E5%9B%BD%29',
    );
    expect(buildUrl('/v1/x', {})).toBe('/v1/x');
  });
});
