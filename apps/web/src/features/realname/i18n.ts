/**
 * This feature's own messages, merged into the translation namespace by `src/app/i18n` (one file per
 * feature, so features add words without touching a shared file). Top-level keys must not collide with
 * those of `src/app/i18n/zh-CN.ts`.
 */
export const zhCN = {
  infoChange: {
    tipText: '企业工商登记信息已发生变更，平台信息尚未更新。',
    tipAction: '查看并确认',
    title: '企业信息变更',
    intro: '工商登记信息与平台信息不一致，确认后平台将按登记信息更新：',
    field_organizeName: '企业名称',
    field_legalName: '法定代表人',
    current: '平台信息',
    registry: '登记信息',
    confirm: '确认变更',
    later: '暂不处理',
    confirmed: '企业信息已更新',
    noPermission: '您没有确认变更的权限。',
    whoRoles: '可由{{roles}}确认。',
    whoHolders: '请联系：',
    holder: '{{role}} {{name}}（{{mobile}}）',
    holderNoName: '{{role}}（{{mobile}}）',
    rolesSeparator: '、',
  },
};

export const en: typeof zhCN = {
  infoChange: {
    tipText:
      "The business registry holds new data for your organisation; the platform's data is not updated yet.",
    tipAction: 'Review and confirm',
    title: 'Organisation information changed',
    intro:
      "The registry's data differ from the platform's. Once confirmed, the platform takes the registry's data:",
    field_organizeName: 'Organisation name',
    field_legalName: 'Legal representative',
    current: 'Platform',
    registry: 'Registry',
    confirm: 'Confirm the change',
    later: 'Not now',
    confirmed: 'Organisation information updated',
    noPermission: 'You may not confirm this change.',
    whoRoles: 'It can be confirmed by the {{roles}}.',
    whoHolders: 'Please contact:',
    holder: '{{role}} {{name}} ({{mobile}})',
    holderNoName: '{{role}} ({{mobile}})',
    rolesSeparator: ', ',
  },
};
