import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { sealOrgByApi, type SealOrg } from './seal-support';
import { HAS_CHROMIUM, MOTION, uniqueMobile, PAGE_DIALECTS } from './support';

/**
 * Applying for seals in a real browser against the real server: the administrator of a real-named
 * organisation picks a contract seal, sees the impression drawn by the browser engine, downloads it as
 * seal.png and saves it as a draft; then submits a finance seal. The record list shows both; the draft is
 * withdrawn after a confirmation; the operator approves the other, which then waits for its claim: the
 * administrator gets a claim link to send, the legal representative a claim button. With
 * ASYNCHRONOUS_SEAL_MAKE the claimed seal is made by a job whose progress the detail page follows. Last, a
 * real-named person draws a hand-drawn seal on the pad and applies for it. Screenshots under
 * test-results/e2e/<dialect>/seal-apply-*.png.
 */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('seal applications in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let admin: Page;
  let org: SealOrg;
  let draftNo = '';
  let submittedNo = '';

  const shot = async (page: Page, name: string) => {
    await expect.poll(() => page.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
    // Tables and previews finish loading first.
    await expect
      .poll(() => page.locator('.ant-spin-spinning, .ant-spin-blur').count(), { timeout: 15_000 })
      .toBe(0);
    await suite.shot(page, `seal-apply-${name}`, { fullPage: true, settle: false });
  };
  const row = (page: Page, applyNo: string) =>
    page.locator(`[data-testid="apply-row"][data-id="${applyNo}"]`);
  const newPage = () => suite.desktop({ acceptDownloads: true });

  /** Picks a kind once the server said the space may apply for it, and waits for its form. */
  const pickKind = async (page: Page, kind: string) => {
    const card = page.getByTestId(`apply-kind-${kind}`);
    await expect.poll(() => card.getAttribute('data-can-apply'), { timeout: 20_000 }).toBe('true');
    await card.click();
    await expect.poll(() => card.getAttribute('data-selected')).toBe('true');
  };

  beforeAll(async () => {
    // Production as a job, so the detail page has progress to follow.
    await suite.db.deleteFrom('config_values').where('code', '=', 'ASYNCHRONOUS_SEAL_MAKE').execute();
    await suite.db
      .insertInto('config_values')
      .values({ code: 'ASYNCHRONOUS_SEAL_MAKE', value: 'true', file_key: null, is_public: false })
      .execute();
    org = await sealOrgByApi(suite.server);
    admin = await newPage();
  });

  it('the administrator previews a contract seal, downloads seal.png and saves a draft', async () => {
    await suite.openSignedIn(admin, org.admin, '/sealService/applySeal');
    await expect
      .poll(() => admin.getByTestId('apply-kind-picker').isVisible(), { timeout: 20_000 })
      .toBe(true);
    // An organisation space offers the organisation kinds, standard and custom; no personal ones.
    expect(await admin.getByTestId('apply-kind-group-standard').isVisible()).toBe(true);
    expect(await admin.getByTestId('apply-kind-group-custom').isVisible()).toBe(true);
    expect(await admin.getByTestId('apply-kind-personalName').count()).toBe(0);

    await pickKind(admin, 'contract');
    const canvas = admin.getByTestId('seal-preview-canvas');
    await expect.poll(() => canvas.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await admin.getByTestId('apply-preview-size').textContent()).toBe('42 × 42 mm');
    expect(await admin.getByTestId('apply-preview-name').textContent()).toContain(org.orgName);
    // The browser engine drew at 400 dpi: 42 mm is 661 px.
    expect(await canvas.evaluate((c) => (c as unknown as { width: number }).width)).toBe(
      Math.round((42 / 25.4) * 400),
    );

    // The second style redraws the impression: the server answers a new template.
    await admin.getByTestId('apply-seal-type-1').click();
    await expect.poll(() => admin.getByTestId('apply-preview-size').textContent()).toBe('40 × 40 mm');
    await expect.poll(() => canvas.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await shot(admin, '01-apply-preview');

    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByTestId('seal-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('seal.png');
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);

    await admin.getByTestId('apply-save-draft').click();
    const result = admin.getByTestId('apply-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 15_000 }).toBe('preCreated');
    draftNo = (await result.getAttribute('data-apply-no')) ?? '';
    expect(draftNo).not.toBe('');
    const saved = await suite.mustApi<{ status: string; sealType: number; carrier: string }>(
      'GET',
      `/v1/seals/sealApply/${draftNo}`,
      org.admin,
    );
    expect(saved).toMatchObject({ status: 'preCreated', sealType: 1, carrier: 'cloud' });
  });

  it('submits a finance seal, which the organisation then holds one application of and cannot apply for again', async () => {
    await admin.getByTestId('apply-result-again').click();
    // Contract seals may be many: the draft is counted, another may still be applied for.
    const contract = admin.getByTestId('apply-kind-contract');
    await expect.poll(() => contract.getAttribute('data-open'), { timeout: 20_000 }).toBe('1');
    expect(await contract.getAttribute('data-can-apply')).toBe('true');
    await pickKind(admin, 'finance');
    // The finance seal's default style is the square finance seal.
    expect(await admin.getByTestId('apply-size').textContent()).toBe('22 × 22 mm');
    await expect
      .poll(() => admin.getByTestId('seal-preview-canvas').getAttribute('data-drawn'), { timeout: 30_000 })
      .toBe('true');
    await admin.getByTestId('apply-submit').click();
    const result = admin.getByTestId('apply-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 15_000 }).toBe('pendingReview');
    submittedNo = (await result.getAttribute('data-apply-no')) ?? '';
    expect(await admin.getByTestId('apply-result-no').textContent()).toContain(submittedNo);
    await shot(admin, '02-apply-result');

    // One finance seal per organisation: with an open application the kind is closed.
    await admin.getByTestId('apply-result-again').click();
    const finance = admin.getByTestId('apply-kind-finance');
    await expect.poll(() => finance.getAttribute('data-can-apply'), { timeout: 20_000 }).toBe('false');
    await finance.click({ force: true });
    expect(await finance.getAttribute('data-selected')).toBe('false');
    expect(await admin.getByTestId('apply-submit').isDisabled()).toBe(true);
    await admin.getByTestId('apply-to-records').click();
  });

  it('the record list shows both; the draft is withdrawn after a confirmation', async () => {
    await expect.poll(() => row(admin, submittedNo).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(new URL(admin.url()).pathname).toBe('/sealService/cloudSealList');
    expect(await row(admin, draftNo).getAttribute('data-status')).toBe('preCreated');
    expect(await row(admin, submittedNo).getAttribute('data-status')).toBe('pendingReview');
    // A draft may be submitted or withdrawn; one under review only withdrawn.
    expect(await row(admin, draftNo).getByTestId('apply-action-submit').count()).toBe(1);
    expect(await row(admin, submittedNo).getByTestId('apply-action-submit').count()).toBe(0);
    await shot(admin, '03-records');

    // The status filter asks the server for drafts only.
    await admin.getByTestId('apply-status-filter').click();
    await admin.locator('.ant-select-item-option[title="待提交"]').click();
    await expect.poll(() => admin.getByTestId('apply-row').count(), { timeout: 15_000 }).toBe(1);
    expect(await row(admin, draftNo).count()).toBe(1);
    await admin.getByTestId('apply-status-filter').click();
    await admin.locator('.ant-select-item-option[title="全部状态"]').click();
    await expect.poll(() => admin.getByTestId('apply-row').count(), { timeout: 15_000 }).toBe(2);

    // The UKey tab has none.
    await admin.getByTestId('apply-tab-ukey').click();
    await expect.poll(() => new URL(admin.url()).pathname).toBe('/sealService/ukeySealList');
    await expect.poll(() => admin.getByTestId('apply-row').count(), { timeout: 15_000 }).toBe(0);
    await admin.getByTestId('apply-tab-cloud').click();
    await expect.poll(() => row(admin, draftNo).isVisible(), { timeout: 15_000 }).toBe(true);

    await row(admin, draftNo).getByTestId('apply-action-revoke').click();
    const confirm = admin.locator('.ant-modal-confirm');
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.textContent()).toContain(draftNo);
    await shot(admin, '04-revoke-confirm');
    await confirm.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await expect
      .poll(() => row(admin, draftNo).getAttribute('data-status'), { timeout: 15_000 })
      .toBe('withdrawn');
    expect(await row(admin, draftNo).getByTestId('apply-action-revoke').count()).toBe(0);
  });

  it('once approved, the administrator sends a claim link and the legal representative may claim', async () => {
    await suite.approve('sealApply', submittedNo);
    await admin.getByTestId('apply-refresh').click();
    await expect
      .poll(() => row(admin, submittedNo).getAttribute('data-status'), { timeout: 15_000 })
      .toBe('pendingProduction');
    expect(await row(admin, submittedNo).getByTestId('apply-row-receive').getAttribute('data-receive')).toBe(
      'unclaimed',
    );
    expect(await row(admin, submittedNo).getByTestId('apply-action-claim').count()).toBe(0);
    await row(admin, submittedNo).getByTestId('apply-action-sendLink').click();
    const url = admin.getByTestId('claim-link-url');
    await expect.poll(() => url.isVisible(), { timeout: 15_000 }).toBe(true);
    const link = new URL(await url.inputValue());
    expect(link.origin).toBe(suite.base);
    expect(link.pathname).toBe('/getSealFlow');
    expect(link.searchParams.get('getSealFlowId')).toMatch(/^gsf/);
    expect(link.searchParams.get('sig')).toBeTruthy();
    expect(await admin.getByTestId('claim-link-expires').textContent()).toMatch(/有效期至/);
    await shot(admin, '05-claim-link');
    await admin.getByTestId('claim-link-close').click();
    await expect.poll(() => url.isVisible()).toBe(false);

    const legal = await newPage();
    await suite.openSignedIn(legal, org.legal, '/sealService/applyRecordList');
    await expect.poll(() => row(legal, submittedNo).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row(legal, submittedNo).getByTestId('apply-action-sendLink').count()).toBe(0);
    await row(legal, submittedNo).getByTestId('apply-action-claim').click();
    await expect.poll(() => new URL(legal.url()).pathname).toBe('/getSealFlow');
    expect(new URL(legal.url()).searchParams.get('applyNo')).toBe(submittedNo);
  });

  it('the detail shows every field and the progress so far', async () => {
    await row(admin, submittedNo).getByTestId('apply-row-no').click();
    const detail = admin.getByTestId('apply-detail-page');
    await expect
      .poll(() => detail.getAttribute('data-status'), { timeout: 15_000 })
      .toBe('pendingProduction');
    expect(new URL(admin.url()).pathname).toBe('/sealService/cloudSealDetail');
    expect(await admin.getByTestId('apply-detail-no').textContent()).toBe(submittedNo);
    expect(await admin.getByTestId('apply-detail-name').textContent()).toContain(org.orgName);
    expect(await admin.getByTestId('apply-step-reviewed').getAttribute('data-state')).toBe('done');
    expect(await admin.getByTestId('apply-step-claimed').getAttribute('data-state')).toBe('current');
    expect(await admin.getByTestId('apply-action-sendLink').count()).toBe(1);
    await shot(admin, '06-detail-approved');
  });

  it('a claimed seal made as a job: the detail follows its progress to the made seal', async () => {
    // The job waits in its queue while the runner is paused, as on a busy system.
    await suite.server.app.jobs.stop();
    const claimed = await suite.mustApi<{ async: boolean; list: { receiveStatus: string }[] }>(
      'POST',
      '/v1/seals/activeFlow',
      org.legal,
      { applyNos: [submittedNo], agreementAccepted: true },
    );
    expect(claimed).toMatchObject({ async: true, list: [{ receiveStatus: 'making' }] });
    await admin.reload();
    const making = admin.getByTestId('apply-making');
    await expect.poll(() => making.getAttribute('data-state'), { timeout: 15_000 }).toBe('queued');
    expect(await admin.getByTestId('apply-step-claimed').getAttribute('data-state')).toBe('done');
    await shot(admin, '07-detail-making');

    suite.server.app.jobs.start();
    const detail = admin.getByTestId('apply-detail-page');
    await expect.poll(() => detail.getAttribute('data-status'), { timeout: 60_000 }).toBe('made');
    await expect.poll(() => making.getAttribute('data-state'), { timeout: 15_000 }).toBe('done');
    expect(await making.getAttribute('data-progress')).toBe('100');
    expect(await admin.getByTestId('apply-step-completed').getAttribute('data-state')).toBe('done');
    const img = admin.getByTestId('apply-seal-image-img');
    await expect
      .poll(
        () =>
          img.evaluate((el) => {
            const i = el as unknown as { complete: boolean; naturalWidth: number };
            return i.complete ? i.naturalWidth : 0;
          }),
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    expect(await admin.getByTestId('apply-action-viewSeal').count()).toBe(1);
    await shot(admin, '08-detail-made');
  });

  it('a real-named person draws a hand-drawn seal on the pad and applies for it', async () => {
    const mobile = uniqueMobile();
    const token = await suite.login(mobile);
    const info = await suite.mustApi<{ userInfoPerson: { accountId: string } }>(
      'GET',
      '/v1/accounts/info',
      token,
    );
    await suite.db
      .updateTable('persons')
      .set({ real_name_status: 1, name: '李雷' })
      .where('id', '=', info.userInfoPerson.accountId)
      .execute();

    const person = await newPage();
    await suite.openSignedIn(person, token, '/sealService/applySeal');
    // The personal space offers the personal kinds only.
    await expect
      .poll(() => person.getByTestId('apply-kind-group-personal').isVisible(), { timeout: 20_000 })
      .toBe(true);
    expect(await person.getByTestId('apply-kind-contract').count()).toBe(0);
    await pickKind(person, 'personalHandDrawn');
    expect(await person.getByTestId('apply-submit').isDisabled()).toBe(true);

    const pad = person.getByTestId('hand-drawn-canvas');
    await expect.poll(() => pad.isVisible()).toBe(true);
    const box = (await pad.boundingBox())!;
    // Two strokes across the pad, as a hand would write.
    const strokes = [
      [
        [0.2, 0.3],
        [0.35, 0.7],
        [0.5, 0.35],
      ],
      [
        [0.55, 0.6],
        [0.7, 0.3],
        [0.85, 0.65],
      ],
    ];
    for (const stroke of strokes) {
      const [first, ...rest] = stroke;
      await person.mouse.move(box.x + first![0]! * box.width, box.y + first![1]! * box.height);
      await person.mouse.down();
      for (const [x, y] of rest)
        await person.mouse.move(box.x + x! * box.width, box.y + y! * box.height, { steps: 12 });
      await person.mouse.up();
    }
    await shot(person, '09-hand-drawn-pad');
    await person.getByTestId('hand-drawn-confirm').click();
    await expect
      .poll(() => person.getByTestId('apply-hand-drawn-ready').isVisible(), { timeout: 15_000 })
      .toBe(true);
    const img = person.getByTestId('apply-hand-drawn-image');
    await expect
      .poll(
        () =>
          img.evaluate((el) => {
            const i = el as unknown as { complete: boolean; naturalWidth: number };
            return i.complete ? i.naturalWidth : 0;
          }),
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    await person.getByTestId('apply-submit').click();
    const result = person.getByTestId('apply-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 15_000 }).toBe('pendingReview');
    const applyNo = (await result.getAttribute('data-apply-no')) ?? '';
    const order = await suite.mustApi<{ sealKind: string; sealName: string; organizeId: string | null }>(
      'GET',
      `/v1/seals/sealApply/${applyNo}`,
      token,
    );
    expect(order).toMatchObject({ sealKind: 'personalHandDrawn', sealName: '李雷', organizeId: null });
    await shot(person, '10-hand-drawn-result');

    // A person claims their own seal: no claim link to send.
    await suite.approve('sealApply', applyNo);
    await person.getByTestId('apply-result-records').click();
    await expect
      .poll(() => row(person, applyNo).getAttribute('data-status'), { timeout: 15_000 })
      .toBe('pendingProduction');
    expect(await row(person, applyNo).getByTestId('apply-action-claim').count()).toBe(1);
    expect(await row(person, applyNo).getByTestId('apply-action-sendLink').count()).toBe(0);
  });
});
