import { appendAnnotation, MALLORY } from '../packages/pdf/src/verify/test-pdf';
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, sign as nodeSign } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signPdf } from '@openseal/pdf';
import { buildCadesDetached, type KeyHandle } from '@openseal/pki';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { madeSealByApi, markOrgRealNamed } from './seal-support';
import {
  createOrgByApi,
  joinOrgByApi,
  loginByApi,
  readSmsCode,
  uniqueMobile,
  type E2eServer,
} from './support';

/**
 * Fixtures of the sign browser tests, made through the API (and the database only where the API has no
 * way, as in seal-support): organisations with a made contract seal and members whose mobiles the test
 * knows (the will-auth code goes to the signer's mobile), a real multi-page PDF, and pdfsig's verdict.
 */
export interface SignOrg {
  organizeId: string;
  orgName: string;
  sealCode: string;
  /** Super administrator (the creator, a seal administrator), inside the organisation. */
  admin: string;
  adminMobile: string;
  /** A staff member without seal permissions, inside the organisation. */
  staff: string;
  staffMobile: string;
}

/** A real-named organisation with a made contract seal, its administrator and a staff member. */
export async function signOrgByApi(server: E2eServer): Promise<SignOrg> {
  const { base, db } = server;
  const adminMobile = uniqueMobile();
  const org = await createOrgByApi(base, await loginByApi(base, adminMobile));
  const legalMobile = uniqueMobile();
  const legal = await joinOrgByApi(base, org.token, org.organizeId, {
    mobile: legalMobile,
    personToken: await loginByApi(base, legalMobile),
    nickname: '法定代表人',
  });
  await db
    .updateTable('members')
    .set({ roles: ['legalPerson'] })
    .where('id', '=', legal.memberId)
    .execute();
  const staffMobile = uniqueMobile();
  const staff = await joinOrgByApi(base, org.token, org.organizeId, {
    mobile: staffMobile,
    personToken: await loginByApi(base, staffMobile),
    nickname: '经办人',
  });
  await markOrgRealNamed(server, org.organizeId);
  const { sealCode } = await madeSealByApi(server, {
    organizeId: org.organizeId,
    orgName: org.orgName,
    admin: org.token,
    legal: legal.token,
    legalMemberId: legal.memberId,
    staff: staff.token,
    staffMemberId: staff.memberId,
    staffMobile,
  });
  return {
    organizeId: org.organizeId,
    orgName: org.orgName,
    sealCode,
    admin: org.token,
    adminMobile,
    staff: staff.token,
    staffMobile,
  };
}

/** A plain A4 PDF of `pages` pages with a line of text on each (classic xref table). */
export function contractPdf(title: string, pages = 2): Buffer {
  const objects: string[] = [];
  const pageIds = Array.from({ length: pages }, (_, i) => 4 + i * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pages; i++) {
    const text = `BT /F1 18 Tf 72 760 Td (${title} - page ${i + 1} of ${pages}) Tj ET\nBT /F1 11 Tf 72 720 Td (The parties agree to the terms below.) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
  }
  let body = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export const HAS_PDFSIG = spawnSync('pdfsig', ['-v']).error === undefined;

/** pdfsig's view of every signature in a file (certificate trust not checked: -nocert). */
export function pdfsig(file: string, password?: string): { valid: boolean; total: boolean }[] {
  const out = spawnSync('pdfsig', ['-nocert', ...(password ? ['-upw', password] : []), file], {
    encoding: 'utf8',
  }).stdout;
  return out
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      valid: block.includes('Signature is Valid.'),
      total: block.includes('- Total document signed'),
    }));
}

/** The little of the DOM the drop-point scroll uses (the e2e project compiles without DOM types). */
interface MarkerNode {
  style: { cssText: string };
  scrollIntoView(options: { block: string; inline: string }): void;
  remove(): void;
}
interface MarkerHost {
  ownerDocument: { createElement(tag: string): MarkerNode };
  appendChild(node: MarkerNode): unknown;
}

/**
 * Drags a palette item onto the first page overlay of the open file, at a fraction of the page, with real
 * pointer moves (the placement layer listens to pointer events).
 */
export async function dragOntoPage(
  page: Page,
  paletteTestId: string,
  at: { fx: number; fy: number },
  pageIndex = 0,
): Promise<void> {
  const source = page.getByTestId(paletteTestId);
  const target = page.locator('[data-testid="sign-page-overlay"]:visible').nth(pageIndex);
  // Bring the drop point itself into view (the pages scroll inside their own box).
  await target.evaluate((el: MarkerHost, f) => {
    const marker = el.ownerDocument.createElement('div');
    marker.style.cssText = `position:absolute;left:${f.fx * 100}%;top:${f.fy * 100}%;width:1px;height:1px`;
    el.appendChild(marker);
    marker.scrollIntoView({ block: 'center', inline: 'nearest' });
    marker.remove();
  }, at);
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('palette or page not visible');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const x = to.x + to.width * at.fx;
  const y = to.y + to.height * at.fy;
  await page.mouse.move((from.x + x) / 2, (from.y + y) / 2, { steps: 5 });
  await page.mouse.move(x, y, { steps: 5 });
  await page.mouse.up();
}

/** Confirms intent in the will-auth dialog or page: send the code, read it from the sandbox outbox, confirm. */
export async function confirmWill(page: Page, base: string, mobile: string): Promise<void> {
  await expect.poll(() => page.getByTestId('will-send').isVisible(), { timeout: 15_000 }).toBe(true);
  const since = Date.now() - 1_000;
  await expect.poll(() => page.getByTestId('will-send').isEnabled(), { timeout: 15_000 }).toBe(true);
  await page.getByTestId('will-send').click();
  // The sandbox tag shows once the code is sent; an error the page shows instead fails here with its text.
  const outcome = async () => {
    if (await page.getByTestId('will-sandbox').isVisible()) return 'sent';
    const errors = page.locator('.ant-message-error, .ant-notification-notice-error');
    return (await errors.count()) > 0 ? `error: ${await errors.first().innerText()}` : 'waiting';
  };
  await expect.poll(outcome, { timeout: 30_000 }).toBe('sent');
  const code = await readSmsCode(base, mobile, since);
  await page.getByTestId('will-code').fill(code);
}

/**
 * A forged seal, as the attacker of issue 13 made it: a self-signed certificate named like a company's
 * contract seal, made with openssl, signing the PDF (a CAdES signature whose certificate chains to
 * nothing this platform trusts, whatever its name says).
 */
export async function forgedSealPdf(
  input: Uint8Array,
  name = '杭州示例科技有限公司合同专用章',
  org = '杭州示例科技有限公司',
): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'openseal-forged-'));
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '365', '-utf8'],
        ...['-keyout', 'forged.key', '-out', 'forged.pem', '-subj', `/CN=${name}/O=${org}`],
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    execFileSync('openssl', ['x509', '-in', 'forged.pem', '-outform', 'DER', '-out', 'forged.der'], {
      cwd: dir,
      stdio: 'pipe',
    });
    const certificate = new Uint8Array(await readFile(join(dir, 'forged.der')));
    const privateKey = createPrivateKey(await readFile(join(dir, 'forged.key'), 'utf8'));
    const key: KeyHandle = {
      id: 'forged',
      algorithm: 'RSA-2048',
      publicKeySpki: new Uint8Array(createPublicKey(privateKey).export({ format: 'der', type: 'spki' })),
      sign: async (data) => new Uint8Array(nodeSign('sha256', data, privateKey)),
    };
    const signed = await signPdf(input, {
      sign: (digest) => buildCadesDetached({ digest, signer: { certificate, key } }),
      signingTime: new Date(),
      name,
    });
    return Buffer.from(signed.bytes!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export { MALLORY };

/** A signed PDF with a FreeText annotation showing `text` appended after sealing, as an attacker's editor would. */
export function appendFreeText(bytes: Uint8Array, text = MALLORY): Buffer {
  return Buffer.from(appendAnnotation(bytes, 'FreeText', text));
}
