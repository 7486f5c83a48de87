/**
 * Links to phones: a signer invited by text message gets a short link that opens their task (and an
 * unknown or expired one says the page is gone), and QR codes carry addresses of this platform only —
 * decoded here from the picture the endpoint draws.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { tinyPdf } from './upload-fixtures';

const LINK = /(http\S+\/s\/([0-9A-Za-z]{10}))/;

describe.each(DIALECTS)('short links and QR codes on %s', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const s = signFixtures(() => t);
  let a: OrgFixture;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    a = await f.org();
  }, 120_000);
  afterAll(async () => t?.close());

  const inviteOf = async (to: string) => {
    for (let i = 0; i < 200; i++) {
      const r = await t.call('GET', `/v1/dev/sms-outbox?mobile=${to}`);
      const sent = (r.body.data.messages as { scene: string; body: string | null }[]).find(
        (m) => m.scene === 'signInvite' && m.body,
      );
      if (sent?.body) return sent.body;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error(`no invitation reached ${to}`);
  };

  it('an invited signer’s text carries a short link that opens their task', async () => {
    const signer = mobile();
    const fileKey = await s.upload(a.admin, tinyPdf('Invitation'));
    const created = await f.post('/v1/sign/flows', a.admin, {
      name: '租赁合同',
      files: [{ fileKey }],
      signers: [{ type: 'person', name: '王五', mobile: signer }],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data as { flowId: string; signers: { taskId: string }[] };
    const text = await inviteOf(signer);
    const [, link, code] = LINK.exec(text) ?? [];
    expect(link, text).toBeDefined();

    const opened = await t.call('GET', `/s/${code}`);
    expect(opened.status).toBe(302);
    const target = new URL(String(opened.headers.location), 'http://x');
    expect(target.pathname).toBe('/signService/signByMe');
    expect(target.searchParams.get('flowId')).toBe(flow.flowId);
    expect(target.searchParams.get('taskId')).toBe(flow.signers[0]!.taskId);
    expect(opened.headers['cache-control']).toBe('no-store');
    const row = await t.db
      .selectFrom('short_links')
      .selectAll()
      .where('code', '=', code!)
      .executeTakeFirstOrThrow();
    expect(row.hits).toBe(1);
    expect(row.purpose).toBe('signInvite');

    // Expired, unknown or malformed: the "no longer available" page, never an error.
    await t.db
      .updateTable('short_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code', '=', code!)
      .execute();
    for (const c of [code, 'AAAAAAAAAA', 'bad-code', 'x'.repeat(60)]) {
      const gone = await t.call('GET', `/s/${c}`);
      expect(gone.status, String(c)).toBe(302);
      expect(gone.headers.location).toBe('/invalidDynamicRecord');
    }
    // A NUL in the address is refused by the input checks, as everywhere.
    const nul = await t.call('GET', '/s/bad%00code');
    expect([nul.status, nul.body.code]).toEqual([400, 1101]);
  });

  const qr = (content: string, format?: 'png' | 'svg') =>
    t.call('POST', '/v1/qrcode/genQRCode', { body: format ? { content, format } : { content } });

  it('draws QR codes of this platform’s addresses that a reader decodes to the full address', async () => {
    const png = await qr('/h5/verifyContractResult?reportId=vr_1', 'png');
    expect(png.body.code, JSON.stringify(png.body)).toBe(0);
    const { content, image } = png.body.data as { content: string; image: string };
    expect(content.endsWith('/h5/verifyContractResult?reportId=vr_1')).toBe(true);
    const picture = PNG.sync.read(Buffer.from(image.replace(/^data:image\/png;base64,/, ''), 'base64'));
    const decoded = jsQR(new Uint8ClampedArray(picture.data), picture.width, picture.height);
    expect(decoded?.data).toBe(content);

    const svg = await qr(content);
    expect(svg.body.code).toBe(0);
    const markup = Buffer.from(
      String(svg.body.data.image).replace(/^data:image\/svg\+xml;base64,/, ''),
      'base64',
    );
    expect(markup.toString('utf8')).toMatch(/^<svg[^>]*viewBox/);
  });

  it('refuses other sites, other schemes and overlong content with a catalogued error', async () => {
    for (const content of ['https://evil.example/login', '//evil.example/x', 'javascript:alert(1)']) {
      const r = await qr(content);
      expect(r.status, content).toBe(400);
      expect(r.body.code, content).toBe(1111);
    }
    const long = await qr(`/h5/${'a'.repeat(1100)}`);
    expect(long.status).toBe(400);
    expect(long.body.code).not.toBe(0);
    const english = await t.call('POST', '/v1/qrcode/genQRCode', {
      body: { content: 'https://evil.example' },
      lang: 'en',
    });
    expect(english.body.message).toBe('A QR code can carry only an address of this platform');
  });
});
