/**
 * This feature's own messages, merged into the translation namespace by `src/app/i18n` (one file per
 * feature, so features add words without touching a shared file). Top-level keys must not collide with
 * those of `src/app/i18n/zh-CN.ts`. The single sign-on entry and return pages of the auth feature use
 * them too.
 */
export const zhCN = {
  sso: {
    entryDivider: '单点登录',
    loginPerson: '个人单点登录',
    loginOrganization: '企业单点登录',
    processing: '正在完成单点登录…',
    success: '登录成功',
    loginExceptionTitle: '登录异常',
    loginExceptionDefault: '登录异常，请重新登录',
    notInEnterpriseTitle: '登录手机号不在该企业中',
    notInEnterpriseDefault: '该企业已在平台开通并有管理员，请联系企业管理员将您添加为企业成员后再登录',
    notInEnterpriseOrg: '企业：{{name}}',
    backToLogin: '重新登录',
    missingFlowTitle: '单点登录链接无效',
    missingFlowText: '地址中缺少单点登录流程编号，请从登录页重新发起单点登录。',
    failedTitle: '单点登录未完成',
    bindTitle: '完善账号信息',
    bindHint: '身份提供方未提供已验证的手机号，请验证您的手机号以完成登录。',
    bindSubmit: '验证并登录',
    chooseOrgTitle: '选择登录企业',
    chooseOrgHint: '您是以下企业的成员，请选择本次登录的企业，或进入个人空间。',
    chooseOrgWho: '{{name}}（{{mobile}}）',
    personalSpace: '个人空间',
    enter: '进入',
    selectTitle: '选择登录空间',
    selectHint: '请选择本次要进入的空间，登录后可随时在右上角切换。',
    selectWho: '您好，{{name}}',
    selectPersonal: '个人空间',
    selectPersonalDesc: '以个人身份使用平台服务',
    selectOrgDesc: '以企业成员身份使用平台服务',
    selectEmpty: '暂无可进入的企业空间',
    current: '当前',
    entering: '正在进入…',
  },
};

export const en: typeof zhCN = {
  sso: {
    entryDivider: 'Single sign-on',
    loginPerson: 'Personal single sign-on',
    loginOrganization: 'Organisation single sign-on',
    processing: 'Completing single sign-on…',
    success: 'Logged in',
    loginExceptionTitle: 'Login exception',
    loginExceptionDefault: 'Login is abnormal; please log in again',
    notInEnterpriseTitle: 'The login mobile is not in this organisation',
    notInEnterpriseDefault:
      'This organisation is already on the platform with an administrator; ask them to add you as a member, then log in again',
    notInEnterpriseOrg: 'Organisation: {{name}}',
    backToLogin: 'Log in again',
    missingFlowTitle: 'This single sign-on address is not valid',
    missingFlowText:
      'The address carries no single sign-on flow; start single sign-on again from the login page.',
    failedTitle: 'Single sign-on did not complete',
    bindTitle: 'Complete your account',
    bindHint: 'The identity provider gave no verified mobile number; verify yours to finish logging in.',
    bindSubmit: 'Verify and log in',
    chooseOrgTitle: 'Choose an organisation',
    chooseOrgHint:
      'You are a member of these organisations: choose the one to log in to, or your personal space.',
    chooseOrgWho: '{{name}} ({{mobile}})',
    personalSpace: 'Personal space',
    enter: 'Enter',
    selectTitle: 'Choose a space',
    selectHint: 'Choose the space to enter now; you can switch at any time from the top right.',
    selectWho: 'Hello, {{name}}',
    selectPersonal: 'Personal space',
    selectPersonalDesc: 'Use the platform as yourself',
    selectOrgDesc: 'Use the platform as a member of this organisation',
    selectEmpty: 'No organisation space to enter',
    current: 'Current',
    entering: 'Entering…',
  },
};
