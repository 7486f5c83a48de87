import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAgent } from '../apps/ukey-agent/src/agent';
import {
  createSoftHsmDir,
  hasSoftHsm,
  softHsmModule,
  type SoftHsmDir,
} from '../apps/ukey-agent/test/softhsm';
import { useE2eSuite } from './fixtures';
import { madeSealByApi, sealOrgByApi, type SealOrg } from './seal-support';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

/**
 * UKey management in a real browser against the real server and the real UKey agent over SoftHSM2
 * tokens: an administrator applies for a signing UKey and makes it on /makeUKey (key pair on the token,
 * certificate issued by the platform, certificate and seal image written, challenge signed, key bound),
 * finds it in the signing tab, unbinds it, binds it again through the agent (a wrong PIN first: attempts
 * left shown), edits it on /ChangeUkeySeal; with two keys inserted the "several UKeys" message shows, and
 * with the agent stopped the "driver missing / agent not running" one. Then the other UKey errors of
 * section 8: a key locked by wrong PINs cannot be chosen any more; a key carrying another organisation's
 * certificate is refused as "holder mismatch"; a renewal with another key inserted says "wrong serial"
 * until the renewed key is back; and an import cut off mid-way (the agent stops while writing) is marked
 * failed, retried and made on the second attempt. Screenshots under
 * test-results/e2e/<dialect>/seal-ukey-*.png.
 */
const MOTION = ['zoom', 'fade', 'move-up', 'slide-up']
  .flatMap((m) => ['enter', 'appear', 'leave'].map((phase) => `.ant-${m}-${phase}`))
  .concat('.ant-motion-collapse', '[class*="-motion-right-enter"]', '[class*="-motion-right-appear"]')
  .join(', ');

const PIN = '246810';
const SO_PIN = '13579246';
const KEY_NAME = '财务签章钥匙';

if (!hasSoftHsm) console.warn('seal-ukey e2e: SoftHSM2 missing; the UKey browser tests skip');

describe.skipIf(!HAS_CHROMIUM || !hasSoftHsm).each(PAGE_DIALECTS)(
  'UKey management in the browser (%s)',
  (dialect) => {
    const suite = useE2eSuite(dialect);
    let hsm: SoftHsmDir;
    let agent: FastifyInstance | null = null;
    let agentUrl = '';
    let serial = '';
    /** A blank key, inserted with the first in the "several UKeys" test. */
    let second = '';
    /** A key carrying another organisation's certificate. */
    let foreign = '';
    let org: SealOrg;
    let sealCode = '';
    /** The spare key's own seal: a seal is carried by one key at a time. */
    let spareSealCode = '';
    let page: Page;
    const previousConf = process.env.SOFTHSM2_CONF;

    const shot = async (name: string) => {
      await expect.poll(() => page.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
      await suite.shot(page, `seal-ukey-${name}`, { fullPage: true, settle: false });
    };
    const visible = (testId: string) => () => page.getByTestId(testId).first().isVisible();
    const row = (sn: string) => page.locator(`[data-testid="ukey-row"][data-id="${sn}"]`);
    const openManage = async (tab: string) => {
      await page.goto(`${suite.base}/sealService/ukeyManage?tab=${tab}`);
      await expect.poll(visible(`ukey-tab-${tab}`), { timeout: 20_000 }).toBe(true);
    };
    /** Picks an option of the antd select inside a form item by its text. */
    const pickOption = async (scope: string, text: string) => {
      await page.getByTestId(scope).locator('.ant-select').first().click();
      const option = page.locator('.ant-select-item-option').filter({ hasText: text }).first();
      await expect.poll(() => option.isVisible()).toBe(true);
      await option.click();
      await page.keyboard.press('Escape');
    };
    /** SoftHSM token directories by serial: moving one out of the token directory pulls the key out. */
    const tokenDirs = new Map<string, string>();
    const tokensDir = () => join(hsm.dir, 'tokens');
    const parkedDir = () => join(hsm.dir, 'parked');
    const addToken = (label: string): string => {
      const before = new Set(readdirSync(tokensDir()));
      const sn = hsm.initToken(label, PIN, SO_PIN);
      const added = readdirSync(tokensDir()).filter((d) => !before.has(d));
      if (added.length !== 1) throw new Error(`token directory of ${label} not found`);
      tokenDirs.set(sn, added[0]!);
      return sn;
    };
    /** Leaves exactly these keys inserted. */
    const insertOnly = (...serials: string[]) => {
      mkdirSync(parkedDir(), { recursive: true });
      for (const [sn, dir] of tokenDirs) {
        const [from, to] = serials.includes(sn)
          ? [join(parkedDir(), dir), join(tokensDir(), dir)]
          : [join(tokensDir(), dir), join(parkedDir(), dir)];
        if (existsSync(from)) renameSync(from, to);
      }
    };
    /** A call to the agent as a local program makes it (no browser origin). */
    const agentCall = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${agentUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const r = (await res.json()) as { code: number; message: string; data: T };
      if (r.code !== 0) throw new Error(`agent ${path}: ${r.code} ${r.message}`);
      return r.data;
    };
    let agentPort = 0;
    const startAgent = async () => {
      agent = await buildAgent({
        host: '127.0.0.1',
        port: 0,
        modulePath: softHsmModule,
        allowedOrigins: [suite.base],
        pinMaxTries: 6,
        pinCallsPerMinute: 1000,
        logLevel: 'silent',
      });
      // Started again on the same port, so the address kept in the browser stays right.
      agentUrl = await agent.listen({ host: '127.0.0.1', port: agentPort });
      agentPort = Number(new URL(agentUrl).port);
    };

    beforeAll(async () => {
      hsm = createSoftHsmDir('openseal-e2e-ukey-');
      serial = addToken('OSKEY1');
      process.env.SOFTHSM2_CONF = hsm.conf;
      await startAgent();
      org = await sealOrgByApi(suite.server);
      ({ sealCode } = await madeSealByApi(suite.server, org, { sealKind: 'contract', carrier: 'ukey' }));
      ({ sealCode: spareSealCode } = await madeSealByApi(suite.server, org, {
        sealKind: 'finance',
        carrier: 'ukey',
      }));

      page = await suite.desktop();
      await page.goto(`${suite.base}/livez`);
      await page.evaluate(
        `localStorage.setItem('accessToken', ${JSON.stringify(org.admin)});` +
          `localStorage.setItem('ukeyAgentUrl', ${JSON.stringify(agentUrl)})`,
      );
    });

    afterAll(async () => {
      await agent?.close();
      hsm?.remove();
      if (previousConf === undefined) delete process.env.SOFTHSM2_CONF;
      else process.env.SOFTHSM2_CONF = previousConf;
    });

    it('shows the signing and authentication tabs, empty, with the component service connected', async () => {
      await openManage('offline');
      await expect
        .poll(() => page.getByTestId('ukey-agent-status').getAttribute('data-connected'))
        .toBe('true');
      await expect.poll(() => page.getByTestId('ukey-table-offline').isVisible()).toBe(true);
      expect(await page.getByTestId('ukey-row').count()).toBe(0);
      await shot('01-offline-empty');
      await page.getByTestId('ukey-tab-online').click();
      await expect.poll(() => page.getByTestId('ukey-table-online').isVisible()).toBe(true);
      expect(new URL(page.url()).searchParams.get('tab')).toBe('online');
    });

    it('applies for a signing UKey and makes it on /makeUKey: certified, written, proven and bound', async () => {
      await openManage('apply');
      await page.getByTestId('ukey-apply-open').click();
      await expect.poll(visible('ukey-apply-form')).toBe(true);
      expect(await page.getByTestId('ukey-apply-holder').textContent()).toContain(org.orgName);
      await page.getByTestId('ukey-apply-name').fill(KEY_NAME);
      await pickOption('ukey-apply-form', sealCode);
      await page.getByTestId('ukey-apply-submit').click();
      await expect.poll(visible('ukey-apply-make-now')).toBe(true);
      await page.getByTestId('ukey-apply-make-now').click();

      await expect.poll(() => new URL(page.url()).pathname).toBe('/makeUKey');
      const applyNo = new URL(page.url()).searchParams.get('applyNo')!;
      await expect
        .poll(() => page.getByTestId('make-ukey-page').getAttribute('data-status'))
        .toBe('toImport');
      // The single key inserted is chosen at once.
      await expect
        .poll(() =>
          page
            .locator(`[data-testid="ukey-key-option"][data-serial="${serial}"]`)
            .getAttribute('data-checked'),
        )
        .toBe('true');
      await page.getByTestId('make-ukey-pin').fill(PIN);
      await shot('02-make-before');
      await page.getByTestId('make-ukey-start').click();
      await expect
        .poll(() => page.getByTestId('make-ukey-page').getAttribute('data-status'), { timeout: 60_000 })
        .toBe('success');
      await expect.poll(visible('make-ukey-success')).toBe(true);
      for (const step of ['detect', 'pin', 'certify', 'write', 'prove'])
        expect(await page.getByTestId(`make-ukey-step-${step}`).getAttribute('data-show')).toBe('finish');
      await shot('03-make-done');

      const detail = await suite.mustApi<{ status: string; ukeySn: string; events: { opt: string }[] }>(
        'POST',
        '/v1/pub/ukeyApply/detail',
        org.admin,
        { applyNo },
      );
      expect(detail).toMatchObject({ status: 'success', ukeySn: serial });
      expect(detail.events.map((e) => e.opt)).toEqual(['apply', 'start', 'done']);

      await page.getByTestId('make-ukey-to-manage').click();
      await expect.poll(() => row(serial).isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await row(serial).getAttribute('data-kind')).toBe('offline');
      expect(await row(serial).getByTestId('ukey-row-cert-status').getAttribute('data-status')).toBe('good');
      expect(await row(serial).getByTestId('ukey-row-name').textContent()).toBe(KEY_NAME);
      await shot('04-offline-bound');

      await row(serial).getByTestId('ukey-row-cert').click();
      await expect.poll(visible('ukey-cert-properties')).toBe(true);
      expect(await page.getByTestId('ukey-cert-status').getAttribute('data-status')).toBe('good');
      await shot('05-cert-properties');
      await page.keyboard.press('Escape');
    });

    it('lists the application as imported in the applications tab', async () => {
      await openManage('apply');
      const applied = page.getByTestId('ukey-apply-row').first();
      await expect.poll(() => applied.getAttribute('data-status')).toBe('success');
      await applied.getByTestId('ukey-apply-detail').click();
      await expect.poll(() => page.getByTestId('ukey-apply-event').count()).toBe(3);
      await shot('06-apply-detail');
      await page.keyboard.press('Escape');
    });

    it('unbinds the key after a confirmation', async () => {
      await openManage('offline');
      await expect.poll(() => row(serial).isVisible()).toBe(true);
      await row(serial).getByTestId('ukey-row-unbind').click();
      await expect.poll(visible('ukey-unbind-confirm')).toBe(true);
      await page.getByTestId('ukey-unbind-confirm').click();
      await expect.poll(() => row(serial).count()).toBe(0);
    });

    it('binds the key again: a wrong PIN says how many attempts are left, the right one binds it', async () => {
      await page.getByTestId('ukey-bind-open').click();
      await expect.poll(visible('ukey-bind-cert'), { timeout: 20_000 }).toBe(true);
      await expect.poll(visible('ukey-bind-form')).toBe(true);
      await page.getByTestId('ukey-bind-name').fill(KEY_NAME);
      await pickOption('ukey-bind-form', sealCode);
      await page.getByTestId('ukey-bind-pin').fill('000000');
      await page.getByTestId('ukey-bind-confirm').click();
      const error = page.getByTestId('ukey-bind-error');
      await expect.poll(() => error.getAttribute('data-problem'), { timeout: 20_000 }).toBe('pinWrong');
      expect(await error.textContent()).toContain('PIN码错误，还可尝试5次');
      await shot('07-bind-wrong-pin');

      await page.getByTestId('ukey-bind-pin').fill(PIN);
      await page.getByTestId('ukey-bind-confirm').click();
      await expect.poll(() => row(serial).isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await row(serial).getAttribute('data-status')).toBe('bound');
    });

    it('renames the key on /ChangeUkeySeal, keeping its seal', async () => {
      await row(serial).getByTestId('ukey-row-edit').click();
      await expect.poll(visible('change-ukey-form'), { timeout: 20_000 }).toBe(true);
      await page.getByTestId('change-ukey-name').fill('合同签章钥匙');
      await shot('08-change');
      await page.getByTestId('change-ukey-save').click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/sealService/ukeyManage');
      await expect.poll(() => row(serial).getByTestId('ukey-row-name').textContent()).toBe('合同签章钥匙');
      const seals = await suite.mustApi<{ seals: { sealCode: string }[] }>(
        'GET',
        `/v1/sealUKeyBinding/getUKeyBindSeals?ukeySn=${serial}`,
        org.admin,
      );
      expect(seals.seals.map((s) => s.sealCode)).toEqual([sealCode]);
    });

    it('with two keys inserted, says so and lets the user pick one', async () => {
      second = addToken('OSKEY2');
      await openManage('offline');
      await page.getByTestId('ukey-bind-open').click();
      const problem = page.getByTestId('ukey-detect-problem');
      await expect.poll(() => problem.getAttribute('data-problem'), { timeout: 20_000 }).toBe('multiple');
      expect(await problem.textContent()).toContain('检测到多个UKey');
      expect(await page.getByTestId('ukey-key-option').count()).toBe(2);
      await shot('09-bind-several');
      await page.locator(`[data-testid="ukey-key-option"][data-serial="${second}"]`).click();
      // The new key holds no seal certificate: it cannot be bound.
      await expect
        .poll(() => page.getByTestId('ukey-cert-problem').getAttribute('data-problem'), { timeout: 20_000 })
        .toBe('unavailable');
      await page.getByTestId('ukey-bind-cancel').click();
    });

    it('with the component service stopped, shows "driver missing / not running" with how to get it', async () => {
      await agent!.close();
      agent = null;
      await openManage('offline');
      await expect
        .poll(() => page.getByTestId('ukey-agent-status').getAttribute('data-connected'))
        .toBe('false');
      await page.getByTestId('ukey-bind-open').click();
      const problem = page.getByTestId('ukey-detect-problem');
      await expect
        .poll(() => problem.getAttribute('data-problem'), { timeout: 20_000 })
        .toBe('agentUnreachable');
      expect(await problem.textContent()).toContain('未安装驱动或组件服务未启动');
      await problem.getByText('下载UKey组件').click();
      await expect.poll(visible('ukey-agent-download')).toBe(true);
      await shot('10-bind-agent-missing');
    });

    it('locks the key after too many wrong PINs: the locked message shows and the key cannot be chosen', async () => {
      await startAgent();
      insertOnly(serial);
      await openManage('offline');
      await expect
        .poll(() => page.getByTestId('ukey-agent-status').getAttribute('data-connected'), { timeout: 20_000 })
        .toBe('true');
      await page.getByTestId('ukey-bind-open').click();
      await expect.poll(visible('ukey-bind-form'), { timeout: 20_000 }).toBe(true);
      await page.getByTestId('ukey-bind-name').fill(KEY_NAME);
      await pickOption('ukey-bind-form', sealCode);
      const error = page.getByTestId('ukey-bind-error');
      // The agent allows six tries: five say how many are left, the sixth locks the key.
      for (let left = 5; left >= 1; left--) {
        await page.getByTestId('ukey-bind-pin').fill('000000');
        await page.getByTestId('ukey-bind-confirm').click();
        await expect
          .poll(() => error.textContent(), { timeout: 20_000 })
          .toContain(`PIN码错误，还可尝试${left}次`);
        expect(await error.getAttribute('data-problem')).toBe('pinWrong');
      }
      await page.getByTestId('ukey-bind-pin').fill('000000');
      await page.getByTestId('ukey-bind-confirm').click();
      // The key, detected again, is locked: the message shows, it cannot be chosen, nothing can be submitted.
      const locked = page.getByTestId('ukey-bind-locked');
      await expect.poll(() => locked.getAttribute('data-problem'), { timeout: 20_000 }).toBe('locked');
      expect(await locked.textContent()).toContain('UKey已锁定，请联系制章单位重置');
      const option = page.locator(`[data-testid="ukey-key-option"][data-serial="${serial}"]`);
      expect(await option.getAttribute('data-choosable')).toBe('false');
      expect(await option.locator('input[type="radio"]').isDisabled()).toBe(true);
      expect(await option.textContent()).toContain('已锁定');
      expect(await error.count()).toBe(0);
      expect(await page.getByTestId('ukey-bind-form').count()).toBe(0);
      expect(await page.getByTestId('ukey-bind-confirm').isDisabled()).toBe(true);
      // Even the right PIN is refused now.
      const refused = await fetch(`${agentUrl}/v1/pin/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ serial, pin: PIN }),
      }).then((r) => r.json() as Promise<{ code: number }>);
      expect(refused.code).toBe(7005);
      await shot('11-bind-locked');
      await page.getByTestId('ukey-bind-cancel').click();

      // The seal maker resets the PIN count with the security officer PIN.
      await agentCall('/v1/pin/reset', { serial, soPin: SO_PIN });
    });

    it("refuses a key carrying another organisation's certificate: holder mismatch", async () => {
      // Another organisation applies for an authentication UKey and writes its certificate into a key.
      const other = await sealOrgByApi(suite.server);
      foreign = addToken('OSKEY3');
      const { publicKeySpki } = await agentCall<{ publicKeySpki: string }>('/v1/keypair/generate', {
        serial: foreign,
        pin: PIN,
      });
      const apply = await suite.mustApi<{ applyNo: string }>('POST', '/v1/pub/ukeyApply/apply', other.admin, {
        ukeyType: 'ukey_online',
        ukeyName: '他方认证钥匙',
      });
      const making = await suite.mustApi<{ certificate: string }>(
        'POST',
        '/v1/pub/ukeyApply/makingData',
        other.admin,
        { applyNo: apply.applyNo, ukeySn: foreign, publicKeySpki },
      );
      await agentCall('/v1/certificates/write', {
        serial: foreign,
        pin: PIN,
        certificate: making.certificate,
      });

      insertOnly(foreign);
      await openManage('offline');
      await page.getByTestId('ukey-bind-open').click();
      const problem = page.getByTestId('ukey-cert-problem');
      await expect
        .poll(() => problem.getAttribute('data-problem'), { timeout: 20_000 })
        .toBe('holderMismatch');
      expect(await problem.textContent()).toContain('UKey持有者与当前登录企业不一致');
      expect(
        await page
          .locator(`[data-testid="ukey-key-option"][data-serial="${foreign}"]`)
          .getAttribute('data-checked'),
      ).toBe('true');
      // Nothing is asked of another holder's key: no PIN, no binding.
      expect(await page.getByTestId('ukey-bind-form').count()).toBe(0);
      expect(await page.getByTestId('ukey-bind-confirm').isDisabled()).toBe(true);
      await shot('12-bind-holder-mismatch');
      await page.getByTestId('ukey-bind-cancel').click();
    });

    it('a renewal asks for the renewed key: another key says "wrong serial", the right one is made', async () => {
      const renewal = await suite.mustApi<{ applyNo: string }>('POST', '/v1/pub/ukeyApply/apply', org.admin, {
        ukeyType: 'ukey_offline_renewal',
        ukeyName: '合同签章钥匙',
        targetUkeySn: serial,
      });
      insertOnly(foreign);
      await page.goto(`${suite.base}/makeUKey?applyNo=${renewal.applyNo}`);
      await expect
        .poll(() => page.getByTestId('make-ukey-page').getAttribute('data-status'), { timeout: 20_000 })
        .toBe('toImport');
      const problem = page.getByTestId('ukey-detect-problem');
      await expect.poll(() => problem.getAttribute('data-problem'), { timeout: 20_000 }).toBe('wrongSerial');
      expect(await problem.textContent()).toContain('UKey序列号不正确，请插入指定的UKey');
      expect(await page.getByTestId('make-ukey-application').textContent()).toContain(serial);
      const wrongKey = page.locator(`[data-testid="ukey-key-option"][data-serial="${foreign}"]`);
      expect(await wrongKey.getAttribute('data-choosable')).toBe('false');
      expect(await wrongKey.getAttribute('data-checked')).toBe('false');
      expect(await page.getByTestId('make-ukey-start').isDisabled()).toBe(true);
      await shot('13-make-renewal-wrong-serial');

      // The renewed key back in: detected again, it is chosen and the renewal is made.
      insertOnly(foreign, serial);
      await page.getByTestId('ukey-detect-problem-redetect').click();
      const rightKey = page.locator(`[data-testid="ukey-key-option"][data-serial="${serial}"]`);
      await expect.poll(() => rightKey.getAttribute('data-checked'), { timeout: 20_000 }).toBe('true');
      expect(await page.getByTestId('ukey-detect-problem').count()).toBe(0);
      await page.getByTestId('make-ukey-pin').fill(PIN);
      await page.getByTestId('make-ukey-start').click();
      await expect
        .poll(() => page.getByTestId('make-ukey-page').getAttribute('data-status'), { timeout: 60_000 })
        .toBe('success');
      const bound = await suite.mustApi<{ list: { ukeySn: string; certSerial: string; applyNo: string }[] }>(
        'POST',
        '/v1/sealUKeyBinding/uKeyList',
        org.admin,
        { tab: 'offline', pageNum: 1, pageSize: 20 },
      );
      expect(bound.list.find((b) => b.ukeySn === serial)?.applyNo).toBe(renewal.applyNo);
    });

    it('an import cut off mid-way is shown, marked failed, retried, and made on the second attempt', async () => {
      const apply = await suite.mustApi<{ applyNo: string }>('POST', '/v1/pub/ukeyApply/apply', org.admin, {
        ukeyType: 'ukey_offline',
        ukeyName: '备用签章钥匙',
        sealCodes: [spareSealCode],
      });
      insertOnly(second);
      // The component service stops while the certificate is being written into the key.
      const writeUrl = `${agentUrl}/v1/certificates/write`;
      await page.route(writeUrl, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        await agent?.close();
        agent = null;
        return route.abort('connectionrefused');
      });
      await page.goto(`${suite.base}/makeUKey?applyNo=${apply.applyNo}`);
      const status = () => page.getByTestId('make-ukey-page').getAttribute('data-status');
      await expect.poll(status, { timeout: 20_000 }).toBe('toImport');
      const key = page.locator(`[data-testid="ukey-key-option"][data-serial="${second}"]`);
      await expect.poll(() => key.getAttribute('data-checked'), { timeout: 20_000 }).toBe('true');
      await page.getByTestId('make-ukey-pin').fill(PIN);
      await page.getByTestId('make-ukey-start').click();

      const error = page.getByTestId('make-ukey-error');
      await expect
        .poll(() => error.getAttribute('data-problem'), { timeout: 60_000 })
        .toBe('agentUnreachable');
      expect(await error.textContent()).toContain('未安装驱动或组件服务未启动');
      expect(await page.getByTestId('make-ukey-step-write').getAttribute('data-show')).toBe('error');
      expect(await page.getByTestId('make-ukey-step-certify').getAttribute('data-show')).toBe('finish');
      // The certificate was issued: the application is importing on the server.
      await expect.poll(status, { timeout: 20_000 }).toBe('importing');
      await shot('14-make-cut-off');
      await page.unroute(writeUrl);

      await page.getByTestId('make-ukey-mark-failed').click();
      await expect.poll(visible('make-ukey-fail-reason')).toBe(true);
      await page.getByTestId('make-ukey-fail-reason').fill('组件服务中断');
      await page.getByTestId('make-ukey-fail-confirm').click();
      await expect.poll(status, { timeout: 20_000 }).toBe('failure');
      expect(await page.getByTestId('make-ukey-failed').textContent()).toContain('组件服务中断');
      await shot('15-make-marked-failed');

      await startAgent();
      await page.getByTestId('make-ukey-retry').click();
      await expect.poll(status, { timeout: 20_000 }).toBe('toImport');
      await expect.poll(() => key.getAttribute('data-checked'), { timeout: 20_000 }).toBe('true');
      await page.getByTestId('make-ukey-pin').fill(PIN);
      await page.getByTestId('make-ukey-start').click();
      await expect.poll(status, { timeout: 60_000 }).toBe('success');
      await expect.poll(visible('make-ukey-success')).toBe(true);
      await shot('16-make-second-attempt');

      const detail = await suite.mustApi<{ status: string; ukeySn: string; events: { opt: string }[] }>(
        'POST',
        '/v1/pub/ukeyApply/detail',
        org.admin,
        { applyNo: apply.applyNo },
      );
      expect(detail).toMatchObject({ status: 'success', ukeySn: second });
      expect(detail.events.map((e) => e.opt)).toEqual(['apply', 'start', 'fail', 'retry', 'start', 'done']);
    });
  },
);
