/**
 * This feature's own messages, merged into the translation namespace by `src/app/i18n` (one file per
 * feature, so features add words without touching a shared file). Top-level keys must not collide with
 * those of `src/app/i18n/zh-CN.ts`.
 */
export const zhCN = {
  roleEditor: {
    sectionMembers: '成员管理',
    sectionRoles: '角色管理',
    hint: '系统角色的权限固定；自定义角色从功能权限树中选择权限，可在添加或编辑成员时分配。',
    create: '新建角色',
    createTitle: '新建角色',
    editTitle: '编辑角色',
    name: '角色名称',
    namePlaceholder: '如：合同专员',
    nameRequired: '请输入角色名称',
    description: '角色说明',
    descriptionPlaceholder: '选填',
    points: '功能权限',
    pointsLabel: '功能权限（已选 {{count}} 项）',
    pointsCount: '{{count}} 项权限',
    pointsRequired: '请至少选择一项功能权限',
    staffBase: '所有成员都具备员工的基础权限：{{points}}。',
    builtIn: '系统角色',
    custom: '自定义',
    builtInLocked: '系统角色不可修改',
    aboveCaller: '含有您没有的权限，不可修改',
    actions: '操作',
    edit: '编辑',
    delete: '删除',
    empty: '暂无角色',
    createSuccess: '角色已创建',
    editSuccess: '角色已更新',
    deleteSuccess: '角色已删除',
    deleteTitle: '删除角色',
    deleteText: '删除后，角色「{{name}}」将不能再分配给成员，此操作不可撤销。确定删除吗？',
  },
  holderResult: {
    newHolder: '现任{{role}}：{{holder}}',
  },
};

export const en: typeof zhCN = {
  roleEditor: {
    sectionMembers: 'Members',
    sectionRoles: 'Roles',
    hint: 'Built-in roles have fixed permissions; a custom role takes its permissions from the function tree and is assigned when adding or editing a member.',
    create: 'New role',
    createTitle: 'New role',
    editTitle: 'Edit role',
    name: 'Role name',
    namePlaceholder: 'e.g. Contract officer',
    nameRequired: 'Enter a role name',
    description: 'Description',
    descriptionPlaceholder: 'Optional',
    points: 'Function permissions',
    pointsLabel: 'Function permissions ({{count}} selected)',
    pointsCount: '{{count}} permissions',
    pointsRequired: 'Choose at least one function permission',
    staffBase: 'Every member holds the staff base: {{points}}.',
    builtIn: 'Built-in',
    custom: 'Custom',
    builtInLocked: 'Built-in roles cannot be changed',
    aboveCaller: 'Carries permissions you do not hold; not yours to change',
    actions: 'Actions',
    edit: 'Edit',
    delete: 'Delete',
    empty: 'No roles',
    createSuccess: 'Role created',
    editSuccess: 'Role updated',
    deleteSuccess: 'Role deleted',
    deleteTitle: 'Delete role',
    deleteText:
      'Once deleted, the role "{{name}}" can no longer be assigned. This cannot be undone. Delete it?',
  },
  holderResult: {
    newHolder: 'Current {{role}}: {{holder}}',
  },
};
