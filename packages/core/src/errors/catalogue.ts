/**
 * The error catalogue of spec section 8: every response code the platform can send, its HTTP status,
 * how the web client must treat it, and a message key with its zh-CN and en text.
 *
 * Codes the spec names keep the spec's numbers and meanings; the rest are OpenSeal's own, grouped by domain
 * (1xxx request and platform, 2xxx accounts and messages, 3xxx organisations, 4xxx real name, 5xxx files,
 * 6xxx seals, 7xxx UKeys, 8xxx payment, 9xxx component service and renewal, 11xxx permissions,
 * 12xxx certificates and PDF signatures).
 */

import { INPUT_ENTRIES } from './entries/input';
import { MEMBERS_ENTRIES } from './entries/members';
import { OPERATORS_ENTRIES } from './entries/operators';
import { REALNAME_ENTRIES } from './entries/realname';
import { SSO_ENTRIES } from './entries/sso';
import { SEALS_ENTRIES } from './entries/seals';
import { UKEYS_ENTRIES } from './entries/ukeys';
import { SEAL_IMAGE_ENTRIES } from './entries/seal-image';
import { SIGNING_ENTRIES } from './entries/signing';
import { VERIFY_ENTRIES } from './entries/verify';
import { PDF_ENCRYPTION_ENTRIES } from './entries/pdf-encryption';
import { EVIDENCE_ENTRIES } from './entries/evidence';
import { ACCESS_ENTRIES } from './entries/access';
import { WORK_LIMITS_ENTRIES } from './entries/work-limits';
import { TRUST_ANCHORS_ENTRIES } from './entries/trust-anchors';

/** How the client reacts to a code (spec section 8). */
export type ClientHandling =
  | 'success'
  | 'sessionInvalid' // toast 1.5 s, clear session, go to login
  | 'toastFail' // toast and fail
  | 'passThrough' // treated as success, passed to the caller (120033, 120034)
  | 'special' // a special handler runs, then failure (-999)
  | 'goHome' // toast, then after 1 s back to the site origin (402)
  | 'loginException'; // SSO result dialog titled "login exception" (315)

export interface CatalogueEntry {
  code: number;
  http: number;
  key: string;
  handling: ClientHandling;
  zh: string;
  en: string;
}

const entries = [
  ...INPUT_ENTRIES,
  ...REALNAME_ENTRIES,
  ...MEMBERS_ENTRIES,
  ...OPERATORS_ENTRIES,
  ...SSO_ENTRIES,
  ...SEALS_ENTRIES,
  ...UKEYS_ENTRIES,
  ...SEAL_IMAGE_ENTRIES,
  ...SIGNING_ENTRIES,
  ...VERIFY_ENTRIES,
  ...PDF_ENCRYPTION_ENTRIES,
  ...EVIDENCE_ENTRIES,
  ...ACCESS_ENTRIES,
  ...WORK_LIMITS_ENTRIES,
  ...TRUST_ANCHORS_ENTRIES,
  // success codes of section 8
  { code: 0, http: 200, key: 'ok', handling: 'success', zh: '成功', en: 'Success' },
  { code: 100, http: 200, key: 'ok.accepted', handling: 'success', zh: '成功', en: 'Success' },
  { code: 1000, http: 200, key: 'ok.done', handling: 'success', zh: '成功', en: 'Success' },

  // session invalid (section 8): toast 1.5 s, session cleared, login
  {
    code: 102,
    http: 401,
    key: 'session.missing',
    handling: 'sessionInvalid',
    zh: '请先登录',
    en: 'Please log in first',
  },
  {
    code: 201,
    http: 401,
    key: 'session.tokenInvalid',
    handling: 'sessionInvalid',
    zh: '登录凭证无效，请重新登录',
    en: 'Your login token is invalid; please log in again',
  },
  {
    code: 202,
    http: 401,
    key: 'session.expired',
    handling: 'sessionInvalid',
    zh: '登录已过期，请重新登录',
    en: 'Your session has expired; please log in again',
  },
  {
    code: 225,
    http: 401,
    key: 'session.revoked',
    handling: 'sessionInvalid',
    zh: '您已退出登录，请重新登录',
    en: 'You have been logged out; please log in again',
  },
  {
    code: 310,
    http: 401,
    key: 'session.accountDisabled',
    handling: 'sessionInvalid',
    zh: '账号已停用，请联系管理员',
    en: 'This account is disabled; contact your administrator',
  },
  {
    code: 312,
    http: 401,
    key: 'session.spaceInvalid',
    handling: 'sessionInvalid',
    zh: '您已不在该组织中，请重新登录',
    en: 'You no longer belong to this organisation; please log in again',
  },
  {
    code: 1097,
    http: 401,
    key: 'session.accountNotFound',
    handling: 'sessionInvalid',
    zh: '账号不存在，请重新登录',
    en: 'The account no longer exists; please log in again',
  },
  {
    code: 1099,
    http: 401,
    key: 'session.loggedInElsewhere',
    handling: 'sessionInvalid',
    zh: '账号已在别处登录',
    en: 'You have logged in elsewhere',
  },
  {
    code: 90001,
    http: 401,
    key: 'session.openTokenInvalid',
    handling: 'sessionInvalid',
    zh: '开放平台凭证无效',
    en: 'The open-platform token is invalid',
  },
  {
    code: 150001,
    http: 401,
    key: 'session.ssoInvalid',
    handling: 'sessionInvalid',
    zh: '单点登录已失效，请重新登录',
    en: 'Single sign-on has expired; please log in again',
  },

  // other codes named by section 8
  {
    code: 305,
    http: 400,
    key: 'request.operationFailed',
    handling: 'toastFail',
    zh: '操作失败',
    en: 'The operation failed',
  },
  {
    code: 120033,
    http: 200,
    key: 'pass.inProgress',
    handling: 'passThrough',
    zh: '处理中',
    en: 'In progress',
  },
  {
    code: 120034,
    http: 200,
    key: 'pass.alreadyDone',
    handling: 'passThrough',
    zh: '已处理',
    en: 'Already done',
  },
  {
    code: -999,
    http: 403,
    key: 'realName.required',
    handling: 'special',
    zh: '您尚未实名认证，请先完成实名认证',
    en: 'You have not verified your real name; please verify first',
  },
  {
    code: 402,
    http: 403,
    key: 'request.goHome',
    handling: 'goHome',
    zh: '无权访问该页面，即将返回首页',
    en: 'You cannot open this page; returning to the home page',
  },
  {
    code: 315,
    http: 401,
    key: 'sso.loginException',
    handling: 'loginException',
    zh: '登录异常，请重新登录',
    en: 'Login is abnormal; please log in again',
  },

  // 1xxx request and platform
  {
    code: 1001,
    http: 400,
    key: 'request.invalid',
    handling: 'toastFail',
    zh: '请求参数有误',
    en: 'The request is not valid',
  },
  {
    code: 1002,
    http: 404,
    key: 'request.notFound',
    handling: 'toastFail',
    zh: '资源不存在',
    en: 'Not found',
  },
  {
    code: 1003,
    http: 429,
    key: 'request.rateLimited',
    handling: 'toastFail',
    zh: '操作过于频繁，请稍后再试',
    en: 'Too many requests; please try again later',
  },
  {
    code: 1004,
    http: 500,
    key: 'server.error',
    handling: 'toastFail',
    zh: '服务器异常，请稍后重试',
    en: 'Server error; please try again later',
  },
  {
    code: 1005,
    http: 504,
    key: 'server.timeout',
    handling: 'toastFail',
    zh: '接口超时',
    en: 'The request timed out',
  },
  {
    code: 1006,
    http: 503,
    key: 'server.network',
    handling: 'toastFail',
    zh: '网络异常',
    en: 'Network error',
  },
  {
    code: 1007,
    http: 400,
    key: 'request.badHeader',
    handling: 'toastFail',
    zh: '请求头有误',
    en: 'A request header is not valid',
  },
  {
    code: 1008,
    http: 409,
    key: 'request.conflict',
    handling: 'toastFail',
    zh: '数据已被修改，请刷新后重试',
    en: 'The data changed meanwhile; refresh and try again',
  },
  {
    code: 1009,
    http: 404,
    key: 'request.routeNotFound',
    handling: 'toastFail',
    zh: '接口不存在',
    en: 'No such endpoint',
  },

  // 2xxx accounts and messages
  {
    code: 2001,
    http: 400,
    key: 'account.mobileFormat',
    handling: 'toastFail',
    zh: '手机号格式不正确',
    en: 'The mobile number is not valid',
  },
  {
    code: 2002,
    http: 400,
    key: 'account.codeWrong',
    handling: 'toastFail',
    zh: '验证码错误',
    en: 'The verification code is wrong',
  },
  {
    code: 2003,
    http: 400,
    key: 'account.codeExpired',
    handling: 'toastFail',
    zh: '验证码已失效，请重新获取',
    en: 'The verification code has expired; request a new one',
  },
  {
    code: 2004,
    http: 400,
    key: 'account.codeFormat',
    handling: 'toastFail',
    zh: '验证码长度不正确',
    en: 'The verification code has the wrong length',
  },
  {
    code: 2005,
    http: 502,
    key: 'account.smsSendFailed',
    handling: 'toastFail',
    zh: '短信发送失败，请稍后重试',
    en: 'The text message could not be sent; try again later',
  },
  {
    code: 2006,
    http: 400,
    key: 'account.passwordWrong',
    handling: 'toastFail',
    zh: '手机号或密码错误',
    en: 'Wrong mobile number or password',
  },
  {
    code: 2007,
    http: 400,
    key: 'account.passwordNotSet',
    handling: 'toastFail',
    zh: '该账号未设置密码，请使用验证码登录',
    en: 'No password is set for this account; log in with a code',
  },
  {
    code: 2008,
    http: 400,
    key: 'account.passwordWeak',
    handling: 'toastFail',
    zh: '密码须为8-32位，且包含字母和数字',
    en: 'A password needs 8-32 characters with letters and digits',
  },
  {
    code: 2010,
    http: 400,
    key: 'account.codeTooMany',
    handling: 'toastFail',
    zh: '验证码错误次数过多，请重新获取',
    en: 'Too many wrong codes; request a new one',
  },
  {
    code: 2011,
    http: 409,
    key: 'account.mobileTaken',
    handling: 'toastFail',
    zh: '该手机号已被注册',
    en: 'This mobile number is already registered',
  },
  {
    code: 2012,
    http: 400,
    key: 'account.spaceCurrent',
    handling: 'toastFail',
    zh: '已是当前空间',
    en: 'This is already your current space',
  },
  {
    code: 2013,
    http: 403,
    key: 'account.spaceNotOwned',
    handling: 'toastFail',
    zh: '您不属于该空间',
    en: 'You do not belong to this space',
  },
  {
    code: 2014,
    http: 400,
    key: 'account.passwordSame',
    handling: 'toastFail',
    zh: '新密码不能与原密码相同',
    en: 'The new password must differ from the old one',
  },

  // 3xxx organisations
  {
    code: 3001,
    http: 400,
    key: 'org.nameRequired',
    handling: 'toastFail',
    zh: '请输入组织名称',
    en: 'Enter the organisation name',
  },
  {
    code: 3002,
    http: 400,
    key: 'org.nameFormat',
    handling: 'toastFail',
    zh: '组织名称格式不正确',
    en: 'The organisation name is not in a valid format',
  },
  {
    code: 3003,
    http: 409,
    key: 'org.nameExists',
    handling: 'toastFail',
    zh: '该组织名称已存在',
    en: 'An organisation with this name already exists',
  },
  {
    code: 3004,
    http: 400,
    key: 'org.usccRequired',
    handling: 'toastFail',
    zh: '请输入统一社会信用代码',
    en: 'Enter the unified social credit code',
  },
  {
    code: 3005,
    http: 400,
    key: 'org.usccFormat',
    handling: 'toastFail',
    zh: '统一社会信用代码格式不正确',
    en: 'The unified social credit code is not valid',
  },
  {
    code: 3006,
    http: 409,
    key: 'org.usccExists',
    handling: 'toastFail',
    zh: '该统一社会信用代码已存在',
    en: 'This unified social credit code is already registered',
  },
  {
    code: 3007,
    http: 404,
    key: 'org.notFound',
    handling: 'toastFail',
    zh: '组织不存在',
    en: 'The organisation does not exist',
  },
  {
    code: 3008,
    http: 400,
    key: 'org.deleteCurrent',
    handling: 'toastFail',
    zh: '不能删除当前所在组织',
    en: 'You cannot delete the organisation you are in',
  },
  {
    code: 3009,
    http: 400,
    key: 'org.deleteVerified',
    handling: 'toastFail',
    zh: '已实名的组织不能删除',
    en: 'A verified organisation cannot be deleted',
  },
  {
    code: 3010,
    http: 403,
    key: 'org.createDisabled',
    handling: 'toastFail',
    zh: '当前不允许创建组织',
    en: 'Creating organisations is not allowed here',
  },

  // 4xxx real name (section 8, real-name messages)
  {
    code: 4001,
    http: 400,
    key: 'realName.failed',
    handling: 'toastFail',
    zh: '认证失败，请重试',
    en: 'Verification failed; please retry',
  },
  {
    code: 4002,
    http: 400,
    key: 'realName.willAuthFailed',
    handling: 'toastFail',
    zh: '意愿认证失败，请重试',
    en: 'Intent confirmation failed; please retry',
  },
  {
    code: 4003,
    http: 400,
    key: 'realName.idFormat',
    handling: 'toastFail',
    zh: '证件号格式不正确',
    en: 'The ID number is not valid',
  },

  // 5xxx files
  {
    code: 5001,
    http: 400,
    key: 'file.uploadFailed',
    handling: 'toastFail',
    zh: '上传失败',
    en: 'Upload failed',
  },
  {
    code: 5002,
    http: 415,
    key: 'file.formatWrong',
    handling: 'toastFail',
    zh: '文件格式不正确',
    en: 'The file format is wrong',
  },
  {
    code: 5003,
    http: 413,
    key: 'file.tooLarge',
    handling: 'toastFail',
    zh: '文件过大',
    en: 'The file is too large',
  },
  {
    code: 5004,
    http: 409,
    key: 'file.duplicate',
    handling: 'toastFail',
    zh: '文件重复',
    en: 'Duplicate file',
  },
  {
    code: 5005,
    http: 400,
    key: 'file.structureInvalid',
    handling: 'toastFail',
    zh: '文件已损坏或结构不正确',
    en: 'The file is damaged or its structure is not valid',
  },
  {
    code: 5006,
    http: 400,
    key: 'file.tooMany',
    handling: 'toastFail',
    zh: '文件数量超出限制',
    en: 'Too many files',
  },
  {
    code: 5007,
    http: 404,
    key: 'file.notFound',
    handling: 'toastFail',
    zh: '文件不存在',
    en: 'The file does not exist',
  },
  {
    code: 5008,
    http: 400,
    key: 'file.imageSize',
    handling: 'toastFail',
    zh: '图片尺寸不符合要求',
    en: 'The image dimensions are not allowed',
  },
  {
    code: 5009,
    http: 400,
    key: 'file.required',
    handling: 'toastFail',
    zh: '请上传文件',
    en: 'Upload a file',
  },

  // 6xxx seals
  {
    code: 6001,
    http: 400,
    key: 'seal.claimError',
    handling: 'toastFail',
    zh: '印章领取异常',
    en: 'The seal could not be claimed',
  },
  {
    code: 6002,
    http: 504,
    key: 'seal.makeTimeout',
    handling: 'toastFail',
    zh: '印模生成超时，请重试',
    en: 'Making the impression timed out; please retry',
  },
  {
    code: 6003,
    http: 409,
    key: 'seal.unpaidOrderExists',
    handling: 'toastFail',
    zh: '存在未支付的订单，请先处理',
    en: 'An unpaid order exists; settle it first',
  },
  {
    code: 6004,
    http: 409,
    key: 'seal.workOrderStatus',
    handling: 'toastFail',
    zh: '工单状态不允许该操作',
    en: 'The work order status does not allow this',
  },
  {
    code: 6005,
    http: 400,
    key: 'seal.importFailed',
    handling: 'toastFail',
    zh: '印章导入失败：未获取到证书或印章',
    en: 'Seal import failed: certificate or seal not obtained',
  },
  {
    code: 6006,
    http: 400,
    key: 'seal.clearFailed',
    handling: 'toastFail',
    zh: '清除失败',
    en: 'Clearing failed',
  },
  {
    code: 6007,
    http: 403,
    key: 'seal.authoriserMismatch',
    handling: 'toastFail',
    zh: '登录信息与授权人不一致',
    en: 'Your login differs from the authoriser',
  },

  // 7xxx UKeys
  {
    code: 7001,
    http: 400,
    key: 'ukey.notInserted',
    handling: 'toastFail',
    zh: '未安装驱动或未插入UKey',
    en: 'The driver is not installed or no UKey is inserted',
  },
  {
    code: 7002,
    http: 400,
    key: 'ukey.wrongSerial',
    handling: 'toastFail',
    zh: 'UKey序列号不正确，请插入指定的UKey',
    en: 'Wrong UKey serial; insert the expected UKey',
  },
  {
    code: 7003,
    http: 400,
    key: 'ukey.multiple',
    handling: 'toastFail',
    zh: '检测到多个UKey，请只插入一个',
    en: 'Several UKeys detected; insert only one',
  },
  {
    code: 7004,
    http: 400,
    key: 'ukey.pinWrong',
    handling: 'toastFail',
    zh: 'PIN码错误，还可尝试{{remaining}}次',
    en: 'Wrong PIN; {{remaining}} attempts left',
  },
  {
    code: 7005,
    http: 400,
    key: 'ukey.locked',
    handling: 'toastFail',
    zh: 'UKey已锁定，请联系制章单位重置',
    en: 'The UKey is locked; contact the seal maker to reset it',
  },
  {
    code: 7006,
    http: 400,
    key: 'ukey.unavailable',
    handling: 'toastFail',
    zh: 'UKey不可用，请重新申请',
    en: 'The UKey is unavailable; apply again',
  },
  {
    code: 7007,
    http: 400,
    key: 'ukey.holderMismatch',
    handling: 'toastFail',
    zh: 'UKey持有者与当前登录企业不一致',
    en: 'The UKey holder differs from the logged-in organisation',
  },

  // 8xxx payment
  { code: 8001, http: 400, key: 'pay.failed', handling: 'toastFail', zh: '支付失败', en: 'Payment failed' },
  {
    code: 8002,
    http: 400,
    key: 'pay.expired',
    handling: 'toastFail',
    zh: '支付已过期',
    en: 'The payment has expired',
  },
  {
    code: 8003,
    http: 400,
    key: 'pay.statusAbnormal',
    handling: 'toastFail',
    zh: '订单状态异常',
    en: 'The order status is abnormal',
  },
  {
    code: 8004,
    http: 502,
    key: 'pay.channelError',
    handling: 'toastFail',
    zh: '支付渠道查询异常',
    en: 'The payment channel query failed',
  },
  {
    code: 8005,
    http: 400,
    key: 'pay.orderIdMissing',
    handling: 'toastFail',
    zh: '缺少订单号',
    en: 'The order number is missing',
  },

  // 9xxx component service and renewal
  {
    code: 9001,
    http: 502,
    key: 'component.startError',
    handling: 'toastFail',
    zh: '启动组件服务异常',
    en: 'The component service could not be started',
  },
  {
    code: 9002,
    http: 504,
    key: 'component.timeout',
    handling: 'toastFail',
    zh: '组件服务超时',
    en: 'The component service timed out',
  },
  {
    code: 9003,
    http: 400,
    key: 'component.clientCodeInvalid',
    handling: 'toastFail',
    zh: '客户端编码无效',
    en: 'The client code is invalid',
  },
  {
    code: 9101,
    http: 400,
    key: 'renewal.notDue',
    handling: 'toastFail',
    zh: '印章未到期，暂不能续期',
    en: 'The seal is not near expiry and cannot be renewed yet',
  },
  {
    code: 9102,
    http: 400,
    key: 'renewal.failed',
    handling: 'toastFail',
    zh: '印章续期失败',
    en: 'Seal renewal failed',
  },
  {
    code: 9103,
    http: 400,
    key: 'renewal.certInvalid',
    handling: 'toastFail',
    zh: '证书已失效，无法续期',
    en: 'The certificate is invalid and cannot be renewed',
  },

  // 12xxx trust core: certificates, PDF signing and verification
  {
    code: 12001,
    http: 400,
    key: 'pdf.unreadable',
    handling: 'toastFail',
    zh: '无法读取该 PDF 文件：{{reason}}',
    en: 'This PDF cannot be read: {{reason}}',
  },
  {
    code: 12002,
    http: 400,
    key: 'pdf.encrypted',
    handling: 'toastFail',
    zh: '该 PDF 的加密方式（如证书加密）无法签署，请先解除加密再签署',
    en: 'This PDF is encrypted in a way that cannot be signed (such as certificate encryption); remove the encryption before signing',
  },
  {
    code: 12003,
    http: 409,
    key: 'pdf.certifiedNoChanges',
    handling: 'toastFail',
    zh: '该文件已被认证签名锁定，不允许再签署',
    en: 'A certification signature locks this file against further signing',
  },
  {
    code: 12004,
    http: 400,
    key: 'pdf.tooComplex',
    handling: 'toastFail',
    zh: '该 PDF 结构过于复杂或过大，无法处理',
    en: 'This PDF is too complex or too large to process',
  },
  {
    code: 12005,
    http: 404,
    key: 'cert.notFound',
    handling: 'toastFail',
    zh: '证书不存在',
    en: 'Certificate not found',
  },
  {
    code: 12006,
    http: 409,
    key: 'cert.notUsable',
    handling: 'toastFail',
    zh: '证书已吊销、冻结或过期，不能用于签署',
    en: 'The certificate is revoked, on hold or expired and cannot sign',
  },
  {
    code: 12007,
    http: 409,
    key: 'cert.statusChange',
    handling: 'toastFail',
    zh: '证书当前状态不允许该操作',
    en: 'The certificate is not in a state that allows this',
  },
  {
    code: 12008,
    http: 400,
    key: 'pdf.pageOutOfRange',
    handling: 'toastFail',
    zh: '页码超出文件范围',
    en: 'The page number is outside the document',
  },

  // 11xxx permissions
  { code: 11001, http: 403, key: 'perm.none', handling: 'toastFail', zh: '暂无权限', en: 'No permission' },
  {
    code: 11002,
    http: 403,
    key: 'perm.sealClaim',
    handling: 'toastFail',
    zh: '暂无印章领取权限',
    en: 'No permission to claim seals',
  },
  {
    code: 11003,
    http: 403,
    key: 'perm.sealManage',
    handling: 'toastFail',
    zh: '暂无印章管理权限',
    en: 'No permission to manage seals',
  },
  {
    code: 11004,
    http: 403,
    key: 'perm.ukeyClaim',
    handling: 'toastFail',
    zh: '暂无UKey领取权限',
    en: 'No permission to claim UKeys',
  },
  {
    code: 11005,
    http: 403,
    key: 'perm.signAdmin',
    handling: 'toastFail',
    zh: '暂无签署管理员权限',
    en: 'No signing-administrator permission',
  },
  {
    code: 11006,
    http: 403,
    key: 'perm.contactAdmin',
    handling: 'toastFail',
    zh: '请联系企业管理员',
    en: 'Contact your enterprise administrator',
  },
  {
    code: 11007,
    http: 403,
    key: 'perm.personNotAllowed',
    handling: 'toastFail',
    zh: '个人用户不可使用该功能，请使用法人账号登录',
    en: 'Individuals cannot use this; log in as an organisation',
  },
] as const satisfies readonly CatalogueEntry[];

export type ErrorKey = (typeof entries)[number]['key'];

export const catalogue: readonly CatalogueEntry[] = entries;

const byKey = new Map<string, CatalogueEntry>(entries.map((e) => [e.key, e]));
const byCode = new Map<number, CatalogueEntry>(entries.map((e) => [e.code, e]));

export function entryForKey(key: ErrorKey): CatalogueEntry {
  const entry = byKey.get(key);
  if (!entry) throw new Error(`unknown error key ${key}`);
  return entry;
}

export function entryForCode(code: number): CatalogueEntry | undefined {
  return byCode.get(code);
}

/** Codes that end the session on the client (section 8). */
export const SESSION_INVALID_CODES: readonly number[] = entries
  .filter((e) => e.handling === 'sessionInvalid')
  .map((e) => e.code);

export const SUCCESS_CODES: readonly number[] = [0, 100, 1000];

export type Language = 'zh-CN' | 'en';

export function messageFor(key: ErrorKey, lang: Language, params?: Record<string, string | number>): string {
  const entry = entryForKey(key);
  let text: string = lang === 'en' ? entry.en : entry.zh;
  if (params) for (const [k, v] of Object.entries(params)) text = text.replaceAll(`{{${k}}}`, String(v));
  return text;
}
