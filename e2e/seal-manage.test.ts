import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { expireSealIn, madeSealByApi, sealOrgByApi, type SealOrg } from './seal-support';
import { HAS_CHROMIUM, openSelect, PAGE_DIALECTS } from './support';

/**
 * My seals, renewal and changes in a real browser against the real server: the administrator of a
 * real-named organisation with four made seals filters the list by kind, disables two seals in one batch
 * (their certificates go on hold), enables them again, freezes one and cancels another (its certificate
 * revoked); renews a certificate brought within 30 days of its end (one more year, a new serial) while a
 * seal far from its end cannot be renewed; applies for a change from the seal's detail, finds it pending
 * in the change records and revokes it (the seal is normal again); and sees a change the operator
 * approved as changed. Screenshots under test-results/e2e/<dialect>/seal-manage-*.png.
 */
const DAY = 86_400_000;

interface SealOut {
  sealCode: string;
  status: string;
  certSerial: string | null;
  certStatus: string | null;
  validTo: string | null;
  sealType: number;
  pendingChangeNo: string | null;
}

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)(
  'my seals, renewal and changes in the browser (%s)',
  (dialect) => {
    const suite = useE2eSuite(dialect);
    let page: Page;
    let org: SealOrg;
    /** contract, finance, business and legal-name seals, all normal. */
    const codes = { contract: '', finance: '', business: '', legalName: '' };

    const shot = async (name: string) => {
      // Tables dim while they load: wait for the fresh rows.
      await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0);
      await suite.shot(page, `seal-manage-${name}`);
    };
    const sealByApi = (sealCode: string) => suite.mustApi<SealOut>('GET', `/v1/seals/${sealCode}`, org.admin);
    const row = (sealCode: string) => page.locator(`[data-testid="seal-row"][data-id="${sealCode}"]`);
    const rows = () => page.getByTestId('seal-row');
    const openList = async (query = '') => {
      await page.goto(`${suite.base}/sealService/mySealList${query}`);
      await expect
        .poll(() => page.getByTestId('my-seal-list-page').isVisible(), { timeout: 15_000 })
        .toBe(true);
    };
    const select = async (sealCode: string) => {
      await row(sealCode).locator('.ant-checkbox-wrapper').click();
      await expect.poll(() => row(sealCode).locator('.ant-checkbox-checked').count()).toBe(1);
    };
    const confirm = async () => {
      await page.getByTestId('seal-confirm-confirm').click();
      await expect.poll(() => page.getByTestId('seal-confirm-body').count(), { timeout: 15_000 }).toBe(0);
    };
    const pickOption = async (testId: string, label: string) => {
      const dropdown = await openSelect(page, page.getByTestId(testId));
      await dropdown.locator('.ant-select-item-option', { hasText: label }).first().click();
    };
    const certStatusOf = async (sealCode: string) => {
      const s = await sealByApi(sealCode);
      return (await suite.server.app.pki.certificate(suite.db, s.certSerial!)).status;
    };

    beforeAll(async () => {
      org = await sealOrgByApi(suite.server);
      for (const kind of Object.keys(codes) as (keyof typeof codes)[])
        codes[kind] = (await madeSealByApi(suite.server, org, { sealKind: kind })).sealCode;

      page = await suite.desktop();
      await suite.openSignedIn(page, org.admin, '/sealService/mySealList');
    });

    it('lists the seals with image, kind, status, validity and certificate, and filters by kind', async () => {
      await expect.poll(() => rows().count(), { timeout: 20_000 }).toBe(4);
      const contract = row(codes.contract);
      expect(await contract.getAttribute('data-status')).toBe('normal');
      expect(await contract.getAttribute('data-cert-status')).toBe('good');
      expect(await contract.getByTestId('seal-kind').textContent()).toBe('合同专用章');
      await expect.poll(() => contract.getByTestId('seal-image').isVisible()).toBe(true);
      // A fresh seal is valid a year: no expiry hint.
      expect(await contract.getByTestId('seal-expiry-hint').count()).toBe(0);
      await shot('01-list');

      await pickOption('seal-filter-kind', '财务专用章');
      await expect.poll(() => new URL(page.url()).searchParams.get('sealKind')).toBe('finance');
      await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(1);
      expect(await rows().first().getAttribute('data-id')).toBe(codes.finance);
      // The filter lives in the address: a reload keeps it.
      await page.reload();
      await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(1);
      await page.getByTestId('seal-filter-reset').click();
      await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(4);
      expect(new URL(page.url()).searchParams.get('sealKind')).toBeNull();
    });

    it('disables two seals in one batch (certificates on hold), then enables them again', async () => {
      await select(codes.contract);
      await select(codes.finance);
      expect(await page.getByTestId('seal-batch-bar').getAttribute('data-count')).toBe('2');
      expect(await page.getByTestId('seal-batch-enable').isDisabled()).toBe(true);
      await page.getByTestId('seal-batch-disable').click();
      await expect.poll(() => page.getByTestId('seal-confirm-text').isVisible()).toBe(true);
      expect(await page.getByTestId('seal-confirm-text').textContent()).toContain('挂起');
      await shot('02-batch-disable-confirm');
      await confirm();
      for (const code of [codes.contract, codes.finance]) {
        await expect.poll(() => row(code).getAttribute('data-status'), { timeout: 15_000 }).toBe('disabled');
        expect(await row(code).getAttribute('data-cert-status')).toBe('hold');
        expect(await certStatusOf(code)).toBe('hold');
      }
      expect(await row(codes.business).getAttribute('data-status')).toBe('normal');
      await shot('03-disabled');

      await select(codes.contract);
      await select(codes.finance);
      await page.getByTestId('seal-batch-enable').click();
      await expect
        .poll(() => page.getByTestId('seal-confirm-text').getAttribute('data-action'))
        .toBe('enable');
      await confirm();
      for (const code of [codes.contract, codes.finance]) {
        await expect.poll(() => row(code).getAttribute('data-status'), { timeout: 15_000 }).toBe('normal');
        expect(await row(code).getAttribute('data-cert-status')).toBe('good');
        expect(await certStatusOf(code)).toBe('good');
      }
    });

    it('freezes one seal and cancels another: frozen on hold, voided revoked', async () => {
      await row(codes.finance).getByTestId('seal-freeze').click();
      await confirm();
      await expect
        .poll(() => row(codes.finance).getAttribute('data-status'), { timeout: 15_000 })
        .toBe('frozen');
      expect(await row(codes.finance).getAttribute('data-cert-status')).toBe('hold');

      await row(codes.business).getByTestId('seal-invalidate').click();
      await expect.poll(() => page.getByTestId('seal-confirm-text').isVisible()).toBe(true);
      expect(await page.getByTestId('seal-confirm-text').textContent()).toContain('吊销');
      await confirm();
      await expect
        .poll(() => row(codes.business).getAttribute('data-status'), { timeout: 15_000 })
        .toBe('voided');
      expect(await row(codes.business).getAttribute('data-cert-status')).toBe('revoked');
      expect(await certStatusOf(codes.business)).toBe('revoked');
      // A voided seal has nothing left to do; a mixed selection offers only what both allow.
      expect(await row(codes.business).getByTestId('seal-enable').count()).toBe(0);
      await select(codes.finance);
      await select(codes.contract);
      expect(await page.getByTestId('seal-batch-enable').isDisabled()).toBe(true);
      expect(await page.getByTestId('seal-batch-disable').isDisabled()).toBe(true);
      expect(await page.getByTestId('seal-batch-invalidate').isDisabled()).toBe(false);
      await shot('04-frozen-voided');
      await page.getByTestId('seal-batch-clear').click();
      await expect.poll(() => page.getByTestId('seal-batch-bar').getAttribute('data-count')).toBe('0');
    });

    it('renews a certificate within 30 days of its end: one more year, a new serial', async () => {
      await expireSealIn(suite.server, codes.contract, 10);
      const before = await sealByApi(codes.contract);
      await openList(`?sealCode=${codes.contract}`);
      const detail = page.getByTestId('seal-detail');
      await expect.poll(() => detail.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await detail.getAttribute('data-seal-code')).toBe(codes.contract);
      expect(await detail.getByTestId('seal-expiry-hint').getAttribute('data-days')).toBe('10');
      expect(await detail.getByTestId('seal-detail-cert-serial').textContent()).toBe(before.certSerial);
      expect(await page.getByTestId('seal-renew').isDisabled()).toBe(false);
      await page.getByTestId('seal-renew').click();
      await page.getByTestId('seal-renew-confirm-confirm').click();
      const result = page.getByTestId('seal-renew-result');
      await expect.poll(() => result.isVisible(), { timeout: 60_000 }).toBe(true);
      const newEnd = Date.parse((await result.getAttribute('data-valid-to')) ?? '');
      expect(newEnd - Date.parse(before.validTo!)).toBe(365 * DAY);
      const after = await sealByApi(codes.contract);
      expect(after.certSerial).not.toBe(before.certSerial);
      await expect
        .poll(() => detail.getByTestId('seal-detail-cert-serial').textContent(), { timeout: 15_000 })
        .toBe(after.certSerial);
      await expect.poll(() => detail.getByTestId('seal-renewal-row').count()).toBe(1);
      expect(await detail.getByTestId('seal-renewal-row').getAttribute('data-status')).toBe('success');
      expect(await detail.getByTestId('seal-expiry-hint').count()).toBe(0);
      expect(await page.getByTestId('seal-renew').isDisabled()).toBe(true);
      await shot('05-detail-renewed');
    });

    it('a seal far from its end shows renewal disabled with the reason', async () => {
      await openList(`?sealCode=${codes.legalName}`);
      const detail = page.getByTestId('seal-detail');
      await expect
        .poll(() => detail.getAttribute('data-seal-code'), { timeout: 15_000 })
        .toBe(codes.legalName);
      expect(await page.getByTestId('seal-renew').isDisabled()).toBe(true);
      expect(await page.getByTestId('seal-renew-reason').textContent()).toContain('30');
      await shot('06-detail-not-due');
    });

    let changeNo = '';
    it('applies for a change from the detail, finds it pending in the records and revokes it', async () => {
      await page.getByTestId('seal-detail-change').click();
      await expect.poll(() => page.getByTestId('change-apply-dialog').isVisible()).toBe(true);
      expect(await page.getByTestId('change-apply-dialog').getAttribute('data-change-type')).toBe('ordinary');
      // Pick once the allowed styles have arrived, and until the choice shows (a re-render may drop a click).
      const styleSelect = page.getByTestId('change-apply-seal-type');
      await expect.poll(() => styleSelect.getAttribute('data-ready'), { timeout: 15_000 }).toBe('true');
      const chosen = page
        .getByTestId('change-apply-dialog')
        .locator('.ant-select-content, .ant-select-selection-item');
      await expect
        .poll(
          async () => {
            if (!(await chosen.first().innerText()).includes('Ø40'))
              await pickOption('change-apply-seal-type', '圆形章（Ø40 mm）');
            return chosen.first().innerText();
          },
          { timeout: 20_000 },
        )
        .toContain('Ø40');
      await page.getByTestId('change-apply-reason').fill('印章样式调整');
      await shot('07-change-apply');
      await page.getByTestId('change-apply-submit').click();
      await expect
        .poll(() => page.getByTestId('change-detail-page').getAttribute('data-status'), {
          timeout: 30_000,
        })
        .toBe('pendingReview');
      changeNo = new URL(page.url()).searchParams.get('changeNo') ?? '';
      expect(changeNo).not.toBe('');
      expect(await page.getByTestId('change-after-seal-type').getAttribute('data-value')).toBe('1');
      expect((await sealByApi(codes.legalName)).status).toBe('changeInApproval');

      await page.goto(`${suite.base}/sealService/changeRecode`);
      const changeRow = page.locator(`[data-testid="change-row"][data-id="${changeNo}"]`);
      await expect
        .poll(() => changeRow.getAttribute('data-status'), { timeout: 15_000 })
        .toBe('pendingReview');
      await shot('08-change-records');
      await changeRow.getByTestId('change-cancel').click();
      await page.getByTestId('change-cancel-confirm-confirm').click();
      await expect.poll(() => changeRow.getAttribute('data-status'), { timeout: 15_000 }).toBe('revoked');
      expect(await changeRow.getByTestId('change-cancel').count()).toBe(0);
      const seal = await sealByApi(codes.legalName);
      expect(seal.status).toBe('normal');
      expect(seal.pendingChangeNo).toBeNull();
      expect(seal.sealType).toBe(0);
    });

    it('a change the operator approved reads as changed, and the seal takes the new style', async () => {
      const change = await suite.mustApi<{ changeNo: string }>(
        'POST',
        '/v1/sealChanges/applySealChange',
        org.admin,
        { sealCode: codes.legalName, sealType: 1, reason: '改用 Ø40 mm 圆形章' },
      );
      await suite.approve('sealChange', change.changeNo);
      await page.goto(`${suite.base}/sealService/changeRecodeDetail?changeNo=${change.changeNo}`);
      await expect
        .poll(() => page.getByTestId('change-detail-page').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('changed');
      expect(await page.getByTestId('change-detail-cancel').count()).toBe(0);
      expect(await page.getByTestId('change-before-seal-type').getAttribute('data-value')).toBe('0');
      expect(await page.getByTestId('change-after-seal-type').getAttribute('data-value')).toBe('1');
      await shot('09-change-detail');

      await page.getByTestId('change-detail-to-seal').click();
      const detail = page.getByTestId('seal-detail');
      await expect
        .poll(() => detail.getAttribute('data-seal-code'), { timeout: 15_000 })
        .toBe(codes.legalName);
      expect(await detail.getAttribute('data-status')).toBe('normal');
      expect(await detail.textContent()).toContain('圆形章（Ø40 mm）');
    });
  },
);
