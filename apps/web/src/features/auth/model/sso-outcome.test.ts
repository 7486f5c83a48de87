import { describe, expect, it } from 'vitest';
import {
  decideSsoStep,
  loginExceptionOf,
  nextPathAfterSso,
  ssoReturnAddress,
  type SsoAnswer,
} from './sso-outcome';

const answer = (over: Partial<SsoAnswer>): SsoAnswer => ({
  operateType: 0,
  token: null,
  message: null,
  exceptionMsg: null,
  ...over,
});

describe('SSO result operateType (spec 4)', () => {
  it('logs in with the token for 0 and any type the spec does not name', () => {
    expect(decideSsoStep(answer({ token: 'ost_a' }))).toEqual({
      kind: 'login',
      token: 'ost_a',
      notice: null,
    });
    expect(decideSsoStep(answer({ operateType: 9, token: 'ost_b', message: 'x' }))).toEqual({
      kind: 'login',
      token: 'ost_b',
      notice: null,
    });
  });

  it('logs in with a success message for 5 and a warning for 6', () => {
    expect(decideSsoStep(answer({ operateType: 5, token: 'ost_c', message: '已创建' }))).toEqual({
      kind: 'login',
      token: 'ost_c',
      notice: { level: 'success', text: '已创建' },
    });
    expect(decideSsoStep(answer({ operateType: 6, token: 'ost_d', message: '未加入企业' }))).toEqual({
      kind: 'login',
      token: 'ost_d',
      notice: { level: 'warning', text: '未加入企业' },
    });
    // A blank message leaves the default text to the page.
    expect(decideSsoStep(answer({ operateType: 6, token: 'ost_e', message: '  ' }))).toMatchObject({
      notice: { level: 'warning', text: null },
    });
  });

  it('asks for the account source (a mobile) on 1 and for the organisation on 2', () => {
    expect(decideSsoStep(answer({ operateType: 1 }))).toEqual({ kind: 'bindMobile' });
    expect(decideSsoStep(answer({ operateType: 2 }))).toEqual({ kind: 'chooseOrg' });
  });

  it('opens the "not in the enterprise" dialog on 3 and the login-exception dialog on 4', () => {
    expect(decideSsoStep(answer({ operateType: 3, message: '请联系管理员' }))).toEqual({
      kind: 'dialog',
      dialog: 'notInEnterprise',
      text: '请联系管理员',
    });
    expect(decideSsoStep(answer({ operateType: 4, exceptionMsg: '账号已被停用' }))).toEqual({
      kind: 'dialog',
      dialog: 'loginException',
      text: '账号已被停用',
    });
    expect(decideSsoStep(answer({ operateType: 4 }))).toEqual({
      kind: 'dialog',
      dialog: 'loginException',
      text: null,
    });
  });

  it('never "logs in" without a token', () => {
    expect(decideSsoStep(answer({ operateType: 5, message: 'ok' }))).toEqual({
      kind: 'dialog',
      dialog: 'loginException',
      text: null,
    });
  });
});

describe('315 on the SSO result (spec 8)', () => {
  it("shows the flow's exception message, else the server message, else the default", () => {
    expect(
      loginExceptionOf({ code: 315, message: '登录异常', data: { exceptionMsg: '身份提供方拒绝' } }),
    ).toEqual({
      text: '身份提供方拒绝',
    });
    expect(loginExceptionOf({ code: 315, message: '登录异常', data: null })).toEqual({ text: '登录异常' });
    expect(loginExceptionOf({ code: 315, message: '', data: { exceptionMsg: 42 } })).toEqual({ text: null });
  });

  it('leaves other codes to the ordinary error handling', () => {
    expect(loginExceptionOf({ code: 14003, message: 'not found' })).toBeNull();
    expect(loginExceptionOf({ code: null, message: 'network' })).toBeNull();
  });
});

describe('where single sign-on continues', () => {
  const base = {
    loginType: 'person' as const,
    identityType: 2 as const,
    personOrgSwitch: true,
    personSsoSpace: ['person', 'org'],
    redirect: '/sealService/mySealList',
  };

  it('sends a person to /selectSpace only with the switch on and org in PERSON_SSO_SPACE', () => {
    expect(nextPathAfterSso(base)).toBe('/selectSpace');
    expect(nextPathAfterSso({ ...base, personOrgSwitch: false })).toBe('/sealService/mySealList');
    expect(nextPathAfterSso({ ...base, personSsoSpace: ['person'] })).toBe('/sealService/mySealList');
  });

  it('sends organisation logins and organisation spaces to the saved address or home', () => {
    expect(nextPathAfterSso({ ...base, loginType: 'organization' })).toBe('/sealService/mySealList');
    expect(nextPathAfterSso({ ...base, identityType: 1 })).toBe('/sealService/mySealList');
    expect(nextPathAfterSso({ ...base, identityType: 1, redirect: null })).toBe('/');
  });

  it('keeps the saved address same-site and never returns to a spent flow', () => {
    const org = { ...base, loginType: 'organization' as const };
    expect(nextPathAfterSso({ ...org, redirect: 'https://evil.example/' })).toBe('/');
    expect(nextPathAfterSso({ ...org, redirect: '/login?redirect=%2F' })).toBe('/');
    expect(nextPathAfterSso({ ...org, redirect: '/ssoResult?flowId=sso_1' })).toBe('/');
  });

  it('builds the return address with the saved target', () => {
    expect(ssoReturnAddress('/')).toBe('/ssoResult');
    expect(ssoReturnAddress('/signService/signByMe?tab=2')).toBe(
      '/ssoResult?redirect=%2FsignService%2FsignByMe%3Ftab%3D2',
    );
    expect(ssoReturnAddress('//evil.example')).toBe('/ssoResult');
    expect(ssoReturnAddress('/ssoResult?flowId=x')).toBe('/ssoResult');
  });
});
