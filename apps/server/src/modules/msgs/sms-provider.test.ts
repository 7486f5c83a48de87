import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpSmsProvider, createSandboxSmsProvider, type DeliveryReport } from './sms-provider';

describe('HTTP SMS gateway adapter', () => {
  const received: Array<{ body: string; signature: string | undefined }> = [];
  let status = 200;
  let url = '';
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-signature'] as string | undefined });
      res.writeHead(status).end('{}');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('posts a signed JSON request and leaves the outcome to the delivery receipt', async () => {
    const provider = createHttpSmsProvider({ url, key: 'gateway-key' });
    const reports: DeliveryReport[] = [];
    provider.onReport((r) => void reports.push(r));
    await provider.send({ id: 'sms_1', mobile: '13800000000', scene: 'loginRegister', body: 'code 123456' });
    const last = received.at(-1)!;
    expect(JSON.parse(last.body)).toEqual({
      id: 'sms_1',
      mobile: '13800000000',
      template: 'loginRegister',
      text: 'code 123456',
    });
    expect(last.signature).toBe(createHmac('sha256', 'gateway-key').update(last.body).digest('hex'));
    expect(reports).toEqual([]);
    await provider.report({ id: 'sms_1', status: 'delivered' });
    expect(reports).toEqual([{ id: 'sms_1', status: 'delivered' }]);
  });
  it('reports and throws when the gateway refuses or cannot be reached', async () => {
    status = 503;
    const provider = createHttpSmsProvider({ url, key: 'k' });
    const reports: DeliveryReport[] = [];
    provider.onReport((r) => void reports.push(r));
    await expect(
      provider.send({ id: 'sms_2', mobile: '13800000000', scene: 'x', body: 'b' }),
    ).rejects.toThrow(/503/);
    expect(reports[0]).toMatchObject({ id: 'sms_2', status: 'failed' });
    status = 200;
    const dead = createHttpSmsProvider({ url: 'http://127.0.0.1:1/none', key: 'k' });
    await expect(dead.send({ id: 'sms_3', mobile: '13800000000', scene: 'x', body: 'b' })).rejects.toThrow(
      /unreachable/,
    );
  });
});

describe('sandbox SMS provider', () => {
  it('reports delivery after its delay, failure for the deny range, and nothing after close', async () => {
    const provider = createSandboxSmsProvider({ delayMs: 20 });
    const reports: DeliveryReport[] = [];
    provider.onReport((r) => void reports.push(r));
    await provider.send({ id: 'a', mobile: '13800000000', scene: 's', body: 'b' });
    await provider.send({ id: 'b', mobile: '19900001111', scene: 's', body: 'b' });
    expect(reports).toEqual([]);
    await new Promise((r) => setTimeout(r, 60));
    expect(reports).toEqual([
      { id: 'a', status: 'delivered' },
      { id: 'b', status: 'failed', error: 'sandbox: number unreachable' },
    ]);
    await provider.send({ id: 'c', mobile: '13800000000', scene: 's', body: 'b' });
    await provider.close();
    await new Promise((r) => setTimeout(r, 60));
    expect(reports).toHaveLength(2);
  });
});
