import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { phoneLayout, pinch, tapUntil, touchDrag } from './phone-support';
import { confirmWill, contractPdf, signOrgByApi, type SignOrg } from './sign-support';
import {
  HAS_CHROMIUM,
  JOURNEY_DIALECTS,
  MOTION,
  readSmsCode,
  uniqueMobile,
  uniqueResidentId,
} from './support';

/**
 * The journeys people make on a phone (iPhone size, 390×844, touch): the mobile home, login by SMS, the
 * seal list and a seal's details, signing a document that waits for them (pinch to zoom, a seal dragged
 * onto the page with a finger, will-auth by SMS), verifying the signed file, the user centre, and a page
 * that only the desktop site has ("continue to desktop", remembered for the session). On every step the
 * page fits the screen (nothing scrolls sideways) and every control is at least 44 px; a screenshot per
 * step under test-results/e2e/<dialect>/phone/.
 */
interface FlowOut {
  flowId: string;
  signers: { taskId: string; status: string }[];
  files: { fileId: string }[];
}

describe.skipIf(!HAS_CHROMIUM).each(JOURNEY_DIALECTS)('phone journeys (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { shotsDir: 'phone' });
  let org: SignOrg;
  let flowId = '';
  let phone: Page;
  let step = 0;

  /** The page fits the phone, then its picture. */
  const check = async (name: string) => {
    await expect.poll(() => phone.locator('.ant-spin-spinning').count(), { timeout: 20_000 }).toBe(0);
    // Measured once dialogs and toasts have finished moving (they scale up from a point).
    await expect.poll(() => phone.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
    const layout = await phoneLayout(phone);
    expect(
      layout.scrollWidth,
      `${name}: wider than the screen: ${layout.overflowing.join(', ')}`,
    ).toBeLessThanOrEqual(layout.viewport);
    expect(layout.overflowing, `${name}: past the right edge`).toEqual([]);
    expect(layout.smallTargets, `${name}: controls under 44 px`).toEqual([]);
    step += 1;
    await suite.shot(phone, `${String(step).padStart(2, '0')}-${name}`, { fullPage: false });
  };
  const path = () => new URL(phone.url()).pathname;
  /** A flow from the organisation's staff member to its administrator, sent through the API. */
  const sendToAdmin = async (name: string, pdf: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
    const uploaded = await suite.mustApi<{ fileKey: string }>(
      'POST',
      '/v1/file/uploadInside?purpose=sign',
      org.staff,
      form,
    );
    return suite.mustApi<FlowOut>('POST', '/v1/sign/flows', org.staff, {
      name,
      scene: 'flow',
      files: [{ fileKey: uploaded.fileKey, role: 'contract' }],
      order: 'sequential',
      validity: '3m',
      signers: [{ type: 'organization', name: '管理员', mobile: org.adminMobile, organizeName: org.orgName }],
    });
  };
  /** The newest signing invitation sent to a mobile after `since` (the sandbox outbox keeps its text). */
  const inviteText = async (mobile: string, since: number): Promise<string> => {
    for (let i = 0; i < 100; i++) {
      const r = await suite.api<{ messages: { scene: string; body: string | null; createdAt: string }[] }>(
        'GET',
        `/v1/dev/sms-outbox?mobile=${mobile}`,
        null,
      );
      const m = r.data.messages.find(
        (x) => x.scene === 'signInvite' && x.body && Date.parse(x.createdAt) >= since,
      );
      if (m?.body) return m.body;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`no invitation reached ${mobile}`);
  };

  beforeAll(async () => {
    org = await signOrgByApi(suite.server);
    // A contract from another party's point of view is not this test's subject: sent through the API.
    const flow = await sendToAdmin('房屋租赁合同', contractPdf('Lease agreement', 2));
    flowId = flow.flowId;
    phone = await suite.phone();
  });

  it('1. a visitor on a phone gets the mobile home, and logs in by SMS', async () => {
    await phone.goto(`${suite.base}/`);
    await phone.waitForURL((u) => u.pathname === '/h5/', { timeout: 15_000 });
    await expect
      .poll(() => phone.getByTestId('mobile-home-login').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await check('home-guest');

    await phone.getByTestId('mobile-home-login').tap();
    await phone.waitForURL((u) => u.pathname === '/h5/login', { timeout: 15_000 });
    await expect.poll(() => phone.getByTestId('login-mobile').isVisible(), { timeout: 15_000 }).toBe(true);
    await check('login');
    await phone.getByTestId('login-mobile').fill(org.adminMobile);
    const since = Date.now() - 1_000;
    await phone.getByTestId('login-send-code').tap();
    const code = await readSmsCode(suite.base, org.adminMobile, since);
    await phone.getByTestId('login-code').fill(code);
    await phone.getByTestId('login-submit').tap();
    await phone.waitForURL((u) => u.pathname.startsWith('/h5') && u.pathname !== '/h5/login', {
      timeout: 20_000,
    });
  });

  it('2. home shows who is signed in and what waits for a signature', async () => {
    if (path() !== '/h5/') await phone.goto(`${suite.base}/h5/`);
    await expect
      .poll(() => phone.getByTestId('mobile-home-todo-count').getAttribute('data-count'), { timeout: 20_000 })
      .toBe('1');
    await check('home-signed-in');
  });

  it('3. the seal list shows the organisation’s seal as a card, and its details', async () => {
    await phone.getByTestId('mobile-tab-seals').tap();
    await phone.waitForURL((u) => u.pathname === '/h5/sealService/mySealList', { timeout: 15_000 });
    const card = phone.locator(`[data-testid="mobile-seal-card"][data-id="${org.sealCode}"]`);
    await expect.poll(() => card.isVisible(), { timeout: 20_000 }).toBe(true);
    await check('seal-list');
    await card.tap();
    await phone.waitForURL((u) => u.pathname === '/h5/sealService/sealDetail', { timeout: 15_000 });
    await expect
      .poll(() => phone.getByTestId('mobile-seal-detail').getAttribute('data-id'), { timeout: 20_000 })
      .toBe(org.sealCode);
    await check('seal-detail');
  });

  it('4. signs the waiting contract: pinch to zoom, a seal dragged by finger, will-auth by SMS', async () => {
    await phone.getByTestId('mobile-tab-sign').tap();
    await phone.waitForURL((u) => u.pathname === '/h5/signService/signByMe', { timeout: 15_000 });
    const card = phone.locator(`[data-testid="mobile-flow-card"][data-id="${flowId}"]`);
    await expect.poll(() => card.isVisible(), { timeout: 20_000 }).toBe(true);
    await check('sign-list');
    await card.getByTestId('mobile-flow-sign').tap();
    const firstPage = phone.locator('[data-testid="pdf-page"][data-page="1"]');
    await expect.poll(() => firstPage.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await expect
      .poll(() => phone.getByTestId('palette-seal').getAttribute('data-enabled'), { timeout: 15_000 })
      .toBe('true');
    await check('sign-task');

    // Two fingers apart: the pages grow (and scroll sideways inside their box); the button zooms back out.
    const viewer = phone.getByTestId('flow-file-viewer');
    const before = (await firstPage.boundingBox())!.width;
    const scroller = phone.locator('.os-flow-file-scroll').first();
    await scroller.scrollIntoViewIfNeeded();
    await pinch(phone, scroller, 80, 200);
    await expect
      .poll(async () => Number(await viewer.getAttribute('data-zoom')), { timeout: 10_000 })
      .toBeGreaterThan(1.5);
    await expect
      .poll(async () => (await firstPage.boundingBox())!.width, { timeout: 10_000 })
      .toBeGreaterThan(before * 1.5);
    await check('sign-zoomed');
    while (Number(await viewer.getAttribute('data-zoom')) > 1)
      await phone.getByTestId('flow-file-viewer-zoom-out').tap();

    // A finger drags the seal from the palette onto the first page: the palette at the bottom of the
    // screen, the page above it, both in view as a person holds them.
    const palette = phone.getByTestId('palette-seal');
    await palette.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    const overlay = phone.locator('[data-testid="sign-page-overlay"]:visible').first();
    const page1 = (await overlay.boundingBox())!;
    const paletteTop = (await palette.boundingBox())!.y;
    const top = Math.max(page1.y, 60);
    const bottom = Math.min(page1.y + page1.height, paletteTop - 120);
    expect(bottom - top, 'the page and the palette are in view together').toBeGreaterThan(40);
    await touchDrag(phone, palette, { x: page1.x + page1.width * 0.4, y: (top + bottom) / 2 - 30 });
    await expect
      .poll(() => phone.getByTestId('placement-count').getAttribute('data-count'), { timeout: 10_000 })
      .toBe('1');
    await check('sign-placed');

    await tapUntil(
      phone.getByTestId('sign-submit'),
      async () => (await phone.getByTestId('will-send').count()) > 0,
    );
    await confirmWill(phone, suite.base, org.adminMobile);
    await check('sign-will');
    await phone.getByTestId('will-verify').tap();
    await expect
      .poll(() => phone.getByTestId('mobile-sign-done').isVisible(), { timeout: 60_000 })
      .toBe(true);
    await check('sign-done');
    // The rating prompt under the result: four stars and a word, never in the way.
    await expect.poll(() => phone.getByTestId('rating-prompt').isVisible(), { timeout: 15_000 }).toBe(true);
    await phone.locator('[data-testid="rating-stars"] .ant-rate-star').nth(3).locator('> div').tap();
    await phone.getByTestId('rating-comment').fill('手机上签很方便');
    await tapUntil(phone.getByTestId('rating-submit'), () => phone.getByTestId('rating-thanks').isVisible());
    await expect.poll(() => phone.getByTestId('rating-thanks').isVisible(), { timeout: 15_000 }).toBe(true);
    const flow = await suite.mustApi<FlowOut & { status: string }>(
      'GET',
      `/v1/sign/flow/${flowId}`,
      org.admin,
    );
    expect(flow.status).toBe('completed');
  });

  it('5. verifies the signed file from the phone: upload, then the verdict', async () => {
    const flow = await suite.mustApi<FlowOut>('GET', `/v1/sign/flow/${flowId}`, org.admin);
    const res = await fetch(
      `${suite.base}/v1/sign/flow/${flowId}/files/${flow.files[0]!.fileId}?download=1`,
      {
        headers: { 'x-access-token': org.admin, 'x-owner-switch': 'PROMOTE', accept: 'application/pdf' },
      },
    );
    expect(res.status).toBe(200);
    const signed = Buffer.from(await res.arrayBuffer());
    await phone.getByTestId('mobile-back').count(); // the done page has no tab bar: go home through the address
    await phone.goto(`${suite.base}/h5/`);
    await phone.getByTestId('mobile-entry-verify').tap();
    await phone.waitForURL((u) => u.pathname === '/h5/verifySign', { timeout: 15_000 });
    await expect.poll(() => phone.getByTestId('verify-upload').isVisible(), { timeout: 20_000 }).toBe(true);
    await check('verify');
    await phone
      .locator('[data-testid="verify-upload"] input[type=file]')
      .setInputFiles({ name: 'lease-signed.pdf', mimeType: 'application/pdf', buffer: signed });
    await expect
      .poll(() => phone.getByTestId('verify-verdict').first().getAttribute('data-verdict'), {
        timeout: 30_000,
      })
      .toBe('valid');
    await check('verify-result');
    // Closing the prompt is an answer too: it goes, and does not come back for this report.
    await expect.poll(() => phone.getByTestId('rating-prompt').isVisible(), { timeout: 15_000 }).toBe(true);
    await phone.getByTestId('rating-close').tap();
    await expect.poll(() => phone.getByTestId('rating-prompt').count(), { timeout: 15_000 }).toBe(0);
  });

  it('6. the user centre: who, spaces, real name, records; English on the phone too', async () => {
    await phone.goto(`${suite.base}/h5/`);
    await phone.getByTestId('mobile-tab-me').tap();
    await phone.waitForURL((u) => u.pathname === '/h5/userCenter', { timeout: 15_000 });
    await expect
      .poll(() => phone.getByTestId('mobile-me-mobile').textContent(), { timeout: 20_000 })
      .toContain(`${org.adminMobile.slice(0, 3)}****${org.adminMobile.slice(-4)}`);
    await check('me');
    await phone.getByTestId('mobile-me-records').tap();
    await phone.waitForURL((u) => u.pathname === '/h5/signService/signRecord', { timeout: 15_000 });
    await expect
      .poll(() => phone.locator(`[data-testid="mobile-flow-card"][data-id="${flowId}"]`).isVisible(), {
        timeout: 20_000,
      })
      .toBe(true);
    await check('sign-records');
    await phone.getByTestId('mobile-language').tap();
    await expect.poll(() => phone.getByTestId('mobile-tab-me').textContent()).toBe('Me');
    await check('sign-records-en');
    await phone.getByTestId('mobile-tab-me').tap();
    await phone.getByTestId('mobile-me-realname').tap();
    await phone.waitForURL((u) => u.pathname === '/h5/userCenter/infoPersonal/realName', { timeout: 15_000 });
    await check('person-real-name-en');
    await phone.getByTestId('mobile-language').tap();
    await expect.poll(() => phone.getByTestId('mobile-tab-me').textContent()).toBe('我的');
  });

  it('7. a newcomer logs in on the phone and verifies their real name there', async () => {
    const mobile = uniqueMobile();
    const newcomer = await suite.phone();
    phone = newcomer;
    await newcomer.goto(`${suite.base}/h5/login`);
    await expect.poll(() => newcomer.getByTestId('login-mobile').isVisible(), { timeout: 15_000 }).toBe(true);
    await newcomer.getByTestId('login-mobile').fill(mobile);
    const since = Date.now() - 1_000;
    await newcomer.getByTestId('login-send-code').tap();
    await newcomer.getByTestId('login-code').fill(await readSmsCode(suite.base, mobile, since));
    await newcomer.getByTestId('login-submit').tap();
    await newcomer.waitForURL((u) => u.pathname === '/h5/', { timeout: 20_000 });
    await expect
      .poll(() => newcomer.getByTestId('mobile-home-go-realname').isVisible(), { timeout: 20_000 })
      .toBe(true);
    await check('newcomer-home');
    await newcomer.getByTestId('mobile-home-go-realname').tap();
    await newcomer.waitForURL((u) => u.pathname === '/h5/userCenter/infoPersonal/realName', {
      timeout: 15_000,
    });
    await expect
      .poll(() => newcomer.getByTestId('realname-person-form').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await newcomer.getByTestId('realname-mobile').fill(mobile);
    await newcomer.getByTestId('realname-name').fill('李四');
    await newcomer.getByTestId('realname-id-number').fill(uniqueResidentId());
    const sent = Date.now() - 1_000;
    await newcomer.getByTestId('realname-send-code').tap();
    // The page counts down once its flow has sent the code; the newest code then is that flow's (a repeated
    // tap would have started a second flow with a code of its own).
    await expect
      .poll(() => newcomer.getByTestId('realname-send-code').isDisabled(), { timeout: 15_000 })
      .toBe(true);
    await readSmsCode(suite.base, mobile, sent);
    await newcomer.waitForTimeout(500);
    await newcomer.getByTestId('realname-code').fill(await readSmsCode(suite.base, mobile, sent));
    await check('newcomer-real-name');
    await tapUntil(
      newcomer.getByTestId('realname-submit'),
      async () => (await newcomer.getByTestId('realname-result').count()) > 0,
    );
    await expect
      .poll(() => newcomer.locator('[data-testid="realname-result"]').getAttribute('data-status'), {
        timeout: 20_000,
      })
      .toBe('success');
    await check('newcomer-real-name-done');
  });

  it('8. the text inviting a signer links straight to the phone signing page; an expired link says so', async () => {
    phone = await suite.phone();
    await suite.openSignedIn(phone, org.admin, '/h5/');
    const since = Date.now() - 1_000;
    const flow = await sendToAdmin('服务协议', contractPdf('Service agreement', 1));
    const text = await inviteText(org.adminMobile, since);
    const link = /https?:\/\/\S+\/s\/[0-9A-Za-z]{10}/.exec(text)?.[0];
    expect(link, text).toBeDefined();
    // The platform's public address in tests is the server itself.
    await phone.goto(`${suite.base}${new URL(link!).pathname}`);
    await phone.waitForURL((u) => u.pathname === '/h5/signService/signByMe', { timeout: 15_000 });
    expect(new URL(phone.url()).searchParams.get('flowId')).toBe(flow.flowId);
    await expect
      .poll(() => phone.getByTestId('mobile-sign-title').textContent(), { timeout: 20_000 })
      .toBe('服务协议');
    await check('sms-link-sign-task');

    await phone.goto(`${suite.base}/s/AAAAAAAAAA`);
    await phone.waitForURL((u) => u.pathname === '/h5/invalidDynamicRecord', { timeout: 15_000 });
    await expect
      .poll(() => phone.getByTestId('invalid-dynamic-record').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await check('sms-link-expired');
  });

  it('9. on the desktop, the signing panel offers its phone page as a QR code; the self-check page reports', async () => {
    const desk = await suite.signedIn(org.admin, '/signService/signByMe');
    const row = desk.locator('[data-testid="task-row"]').first();
    await expect.poll(() => row.isVisible(), { timeout: 20_000 }).toBe(true);
    await row.getByTestId('task-sign').click();
    await desk.getByTestId('sign-phone-qr').click();
    const code = desk.getByTestId('sign-phone-qr-code');
    await expect
      .poll(() => code.getAttribute('data-content'), { timeout: 15_000 })
      .toMatch(/\/h5\/signService\/signByMe\?flowId=.+&taskId=.+$/);
    await expect.poll(() => code.locator('img').isVisible()).toBe(true);
    await suite.shot(desk, 'desktop-sign-qr');
    // The deployment's self-check page, for the people who run it.
    await desk.goto(`${suite.base}/pageTest`);
    await expect
      .poll(() => desk.getByTestId('page-test').getAttribute('data-ok'), { timeout: 20_000 })
      .toBe('true');
    expect(
      await desk.locator('[data-testid="page-test-providers"] [data-kind="sms"]').getAttribute('data-mode'),
    ).toBe('sandbox');
    await suite.shot(desk, 'desktop-page-test', { fullPage: true });
  });

  it('10. the phone pages fit the narrowest and widest common phones (320 and 414 px), and in English', async () => {
    const pages = [
      '/h5/',
      '/h5/sealService/mySealList',
      `/h5/sealService/sealDetail?sealCode=${org.sealCode}`,
      '/h5/signService/signByMe',
      '/h5/signService/signRecord',
      '/h5/userCenter',
      '/h5/userCenter/infoPersonal',
      '/h5/verifySign',
      '/h5/invalidDynamicRecord',
    ];
    for (const [width, language] of [
      [320, 'zh-CN'],
      [414, 'zh-CN'],
      [390, 'en'],
    ] as const) {
      phone = await suite.phone({ viewport: { width, height: 740 }, locale: language });
      await phone.addInitScript(`localStorage.setItem('language', '${language}')`);
      for (const path of pages) {
        await suite.openSignedIn(phone, org.admin, path);
        await expect
          .poll(() => phone.getByTestId('mobile-shell').isVisible(), { timeout: 20_000 })
          .toBe(true);
        await check(
          `${width}-${language}-${path.slice('/h5/'.length).split('?')[0]!.replaceAll('/', '-') || 'home'}`,
        );
      }
      // Logged out: the login page.
      await phone.evaluate("localStorage.removeItem('accessToken')");
      await phone.goto(`${suite.base}/h5/login`);
      await expect.poll(() => phone.getByTestId('login-mobile').isVisible(), { timeout: 20_000 }).toBe(true);
      await check(`${width}-${language}-login`);
      await suite.close(phone);
    }
  });
});
