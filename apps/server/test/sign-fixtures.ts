/**
 * A quick flow ready to sign, the way the web app gets there: upload a PDF, start a quick flow with the
 * caller as its only signer, will-auth for the task (create, send the code, verify it).
 */
import { expect } from 'vitest';
import { hashToken } from '../src/lib/secrets';
import type { TestApp } from './harness';
import { multipart } from './upload-fixtures';

export function signFixtures(t: () => Pick<TestApp, 'db' | 'call' | 'smsCode'>) {
  const post = (url: string, token: string, body: unknown = {}) => t().call('POST', url, { token, body });

  async function upload(token: string, bytes: Buffer, name = 'contract.pdf', type = 'application/pdf') {
    const { body, contentType } = multipart([{ name, bytes, type }]);
    const r = await t().call('POST', '/v1/file/uploadInside?purpose=sign', {
      token,
      body,
      headers: { 'content-type': contentType },
    });
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    return r.body.data.fileKey as string;
  }

  async function mobileOf(token: string) {
    const row = await t()
      .db.selectFrom('sessions as s')
      .innerJoin('persons as p', 'p.id', 's.person_id')
      .select('p.mobile')
      .where('s.token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    return row.mobile;
  }

  /** Will-auth for a task: create, send the code, verify it. */
  async function willFor(token: string, taskId: string) {
    const created = await post('/v1/will/createWillUrl', token, { source: 3, bizId: taskId });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.willBizId as string;
    expect((await post(`/v1/will/${id}/sendCode`, token)).body.code).toBe(0);
    const code = await t().smsCode(await mobileOf(token));
    const checked = await post(`/v1/will/${id}/verify`, token, { code });
    expect(checked.body.data?.status, JSON.stringify(checked.body)).toBe('verified');
    return id;
  }

  /** A quick flow of one uploaded file with the caller as its signer, and a verified will-auth for it. */
  async function quickFlow(token: string, fileKey: string) {
    const created = await post('/v1/sign/flows', token, {
      name: 'quick',
      scene: 'quick',
      files: [{ fileKey, role: 'contract' }],
      validity: '3m',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    const taskId = flow.signers[0].taskId as string;
    return {
      flowId: flow.flowId as string,
      fileId: flow.files[0].fileId as string,
      taskId,
      willBizId: await willFor(token, taskId),
    };
  }

  return { upload, mobileOf, willFor, quickFlow };
}
