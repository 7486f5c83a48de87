import { REAL_NAME_STATUS, contracts, usccCheckChar } from '@openseal/core';
import type { Db } from '@openseal/db';
import { hashPassword } from '../lib/secrets';
import * as accountsRepo from '../modules/accounts/accounts.repository';
import type { ConfigService } from '../modules/config/config.service';
import type { FilesService } from '../modules/files/files.service';
import * as orgRepo from '../modules/organizes/organizes.repository';
import { drawLogoPng } from './logo';
import { markRealName } from './demo.repository';

const { DEFAULT_CUSTOM_SEAL_CONFIG, DEFAULT_STANDARD_SEAL_TYPES } = contracts;

/** The demo logins the README names. */
export const DEMO = {
  password: 'Demo1234',
  legal: { id: 'psn_demo_legal', mobile: '13800000001', name: '张三' },
  admin: { id: 'psn_demo_admin', mobile: '13800000002', name: '李四' },
  person: { id: 'psn_demo_person', mobile: '13800000003', name: '王五' },
  org: {
    id: 'org_demo',
    name: '杭州示例科技有限公司',
    uscc: `91330106MA27Y5XK0${usccCheckChar('91330106MA27Y5XK0')}`,
  },
} as const;

const DEFAULT_CONFIG: Array<{ code: string; value: string; isPublic: boolean }> = [
  // English texts: `CODE@en` rows, served when the request language is English.
  { code: 'SYS_NAME_PUBLIC@en', value: 'Unified Electronic Seal Public Service Platform', isPublic: true },
  {
    code: 'HOME_BANNER@en',
    value: JSON.stringify([
      {
        title: 'Unified Electronic Seal Public Service Platform',
        subtitle: 'Apply for, manage, sign with and verify electronic seals in one place',
      },
      {
        title: 'Trusted electronic signing',
        subtitle: 'Standard PDF signatures for organisations and individuals',
      },
    ]),
    isPublic: true,
  },
  {
    code: 'VERIFY_SIGN_BANNER@en',
    value: JSON.stringify([
      { title: 'Verify signatures', subtitle: 'Upload a signed PDF to check its signatures' },
    ]),
    isPublic: true,
  },
  {
    code: 'OPEN_PLATFORM_BANNER@en',
    value: JSON.stringify([{ title: 'Open platform', subtitle: 'Integrate electronic seals and signing' }]),
    isPublic: true,
  },
  {
    code: 'APPLICATION_CENTER_BANNER@en',
    value: JSON.stringify([
      { title: 'Application centre', subtitle: 'Electronic-seal applications by scene' },
    ]),
    isPublic: true,
  },
  {
    code: 'REALNAME_BANNER_VERIFIED@en',
    value: 'Your real name is verified: you can apply for electronic seals and sign online',
    isPublic: true,
  },
  {
    code: 'REALNAME_BANNER_UNVERIFIED@en',
    value: 'Your real name is not verified yet; verify it to use every function',
    isPublic: true,
  },
  {
    code: 'ANNOUNCEMENT_CONTENT@en',
    value:
      'Welcome. In this demo, text messages and payments go through sandbox services: no real message is sent and nothing is charged.',
    isPublic: true,
  },
  { code: 'SYS_NAME_PUBLIC', value: '统一电子印章公共服务平台', isPublic: true },
  {
    code: 'HOME_BANNER',
    value: JSON.stringify([
      { title: '统一电子印章公共服务平台', subtitle: '电子印章申领、管理、签署、验证，一站办理' },
      { title: '安全可信的电子签署', subtitle: '面向企业与个人的标准 PDF 电子签名' },
    ]),
    isPublic: true,
  },
  {
    code: 'VERIFY_SIGN_BANNER',
    value: JSON.stringify([{ title: '签名验证', subtitle: '上传已签署的 PDF 文件，核验签名真伪' }]),
    isPublic: true,
  },
  {
    code: 'OPEN_PLATFORM_BANNER',
    value: JSON.stringify([{ title: '开放平台', subtitle: '接入电子印章与签署能力' }]),
    isPublic: true,
  },
  {
    code: 'APPLICATION_CENTER_BANNER',
    value: JSON.stringify([{ title: '应用中心', subtitle: '场景化的电子印章应用' }]),
    isPublic: true,
  },
  {
    code: 'REALNAME_BANNER_VERIFIED',
    value: '您已完成实名认证，可申领电子印章、在线签署文件',
    isPublic: true,
  },
  {
    code: 'REALNAME_BANNER_UNVERIFIED',
    value: '您尚未完成实名认证，完成实名认证后即可使用全部功能',
    isPublic: true,
  },
  { code: 'MINOR_CONFIG', value: '[]', isPublic: true },
  { code: 'HELP_DOC_URL', value: '/help', isPublic: true },
  { code: 'DATA_BOARD_ENABLED', value: 'false', isPublic: true },
  { code: 'DEFAULT_LOGIN', value: 'platform', isPublic: true },
  { code: 'REALNAME_WAY', value: 'platform', isPublic: true },
  { code: 'LEGAL_CREATE_DISABLE', value: 'false', isPublic: true },
  { code: 'PSN_EP_SWITCH', value: 'true', isPublic: true },
  { code: 'PERSON_SSO_SPACE', value: JSON.stringify(['person', 'org']), isPublic: true },
  { code: 'PRESENTER_CONTRACT', value: 'true', isPublic: true },
  { code: 'PRESENTER_COPIES', value: '1', isPublic: true },
  { code: 'DISPLAY_ANNOUNCEMENT', value: 'true', isPublic: true },
  {
    code: 'ANNOUNCEMENT_CONTENT',
    value: '欢迎使用统一电子印章公共服务平台。本演示环境的短信与支付均为沙箱服务，不会产生真实短信或费用。',
    isPublic: true,
  },
  { code: 'OPERATION_GUIDE', value: '/docs', isPublic: true },
  { code: 'IS_NEED_AMOUNT', value: 'true', isPublic: false },
  { code: 'ASYNCHRONOUS_SEAL_MAKE', value: 'false', isPublic: false },
  // Seal kinds and drawing types on offer: JSON, read by the seals module (contracts.standardSealTypeConfig).
  {
    code: 'CONFIG_STANDARD_SEAL_TYPE',
    value: JSON.stringify(DEFAULT_STANDARD_SEAL_TYPES),
    isPublic: true,
  },
  { code: 'CUSTOM_SEAL_CONFIG', value: JSON.stringify(DEFAULT_CUSTOM_SEAL_CONFIG), isPublic: true },
  {
    code: 'PLUGIN_ROUTES',
    value: JSON.stringify([{ path: '/plugin/apiDocs', title: '接口文档', kind: 'iframe', target: '/docs' }]),
    isPublic: true,
  },
  {
    code: 'PAYMENT_CHANNELS',
    value: JSON.stringify([{ code: 'SANDBOX_PAY', name: '沙箱支付（演示）', enabled: true }]),
    isPublic: false,
  },
  {
    code: 'GOODS',
    value: JSON.stringify([
      {
        code: 'UKEY_SIGN',
        name: '签章UKey',
        unitPriceFen: 20000,
        minQuantity: 1,
        maxQuantity: 10,
        maxSealsPerKey: 5,
      },
      {
        code: 'CLOUD_SEAL',
        name: '云印章（一年）',
        unitPriceFen: 30000,
        minQuantity: 1,
        maxQuantity: 20,
        maxSealsPerKey: null,
      },
    ]),
    isPublic: false,
  },
];

/** First start: platform configuration (always) and the demo people and organisation (when asked). */
export async function seed(
  db: Db,
  deps: { config: ConfigService; files: FilesService; demo: boolean },
): Promise<{ config: boolean; demo: boolean }> {
  const done = { config: false, demo: false };
  // Defaults for every code that is missing, so a data directory from an older release gets new keys too.
  const added = await deps.config.addMissing(db, DEFAULT_CONFIG);
  if (!(await deps.config.has('TOPIC_LOGO'))) {
    const logo = await deps.files.storeSystemFile(db, {
      bytes: drawLogoPng(),
      fileName: 'logo.png',
      purpose: 'image',
    });
    await deps.config.addMissing(db, [
      { code: 'TOPIC_LOGO', value: 'logo.png', fileKey: logo.fileKey, isPublic: true },
    ]);
  }
  done.config = added > 0;
  if (deps.demo && !(await accountsRepo.findPersonById(db, DEMO.legal.id))) {
    const hash = await hashPassword(DEMO.password);
    await db.transaction().execute(async (trx) => {
      for (const p of [DEMO.legal, DEMO.admin, DEMO.person]) {
        if (await accountsRepo.findPersonByMobile(trx, p.mobile)) continue;
        await accountsRepo.insertPersonIfAbsent(trx, p);
        await accountsRepo.setPassword(trx, p.id, hash);
        await markRealName(trx, 'persons', p.id, REAL_NAME_STATUS.verified);
      }
      if (!(await orgRepo.findLiveOrgBy(trx, 'uscc', DEMO.org.uscc))) {
        await orgRepo.insertOrg(trx, {
          id: DEMO.org.id,
          name: DEMO.org.name,
          uscc: DEMO.org.uscc,
          createdBy: DEMO.legal.id,
        });
        await markRealName(trx, 'organizations', DEMO.org.id, REAL_NAME_STATUS.verified);
        await orgRepo.insertMember(trx, {
          id: 'mbr_demo_legal',
          organizationId: DEMO.org.id,
          personId: DEMO.legal.id,
          roles: ['legalPerson', 'superAdmin'],
        });
        await orgRepo.insertMember(trx, {
          id: 'mbr_demo_admin',
          organizationId: DEMO.org.id,
          personId: DEMO.admin.id,
          roles: ['admin'],
        });
      }
    });
    done.demo = true;
  }
  return done;
}
