/** Words of the first-use tour (OPERATION_GUIDE), merged into the translation namespace by `src/app/i18n`. */
export const zhCN = {
  tour: {
    next: '下一步',
    prev: '上一步',
    finish: '知道了',
    step: '{{current}} / {{total}}',
    home: {
      nav: {
        title: '顶部导航',
        description: '印章服务、签署服务、验签和开放平台都在这里，随时切换。',
      },
      realName: {
        title: '先完成实名认证',
        description: '实名认证通过后，才能申领电子印章和签署文件。这里显示您当前的实名状态。',
      },
      quick: {
        title: '常用功能',
        description: '我的印章、申请印章、待我签署、快捷签署、验签和个人中心，一键直达。',
      },
      account: {
        title: '账号与空间',
        description: '在这里切换个人或企业空间、创建企业、进入个人中心或退出登录。',
      },
      todo: {
        title: '待我签署',
        description: '别人发给您签署的文件会出现在这里，点开即可签署。',
      },
      entries: {
        title: '常用入口',
        description: '签署、印章、验签、领章和实名认证，在手机上也能完成。',
      },
      tabs: {
        title: '底部导航',
        description: '首页、印章、签署和“我的”，轻点即可切换。',
      },
    },
    sealList: {
      filters: {
        title: '查找印章',
        description: '按印章名称或编码搜索；也可按状态、类型和载体筛选。',
      },
      batch: {
        title: '批量管理',
        description: '勾选印章后，可批量启用、停用或注销（需印章管理权限）。',
      },
      table: {
        title: '印章列表',
        description: '每枚印章的图样、状态和有效期；“详情”可查看证书并进行管理。',
      },
      card: {
        title: '印章卡片',
        description: '轻点卡片查看印章详情、证书和有效期。',
      },
      tabs: {
        title: '底部导航',
        description: '随时回到首页，或切换到签署和“我的”。',
      },
    },
    signList: {
      tabs: {
        title: '按状态查看',
        description: '待我签署、等待他人、已完成和全部，分类查看签署任务。',
      },
      search: {
        title: '搜索',
        description: '输入文件名称，快速找到签署任务。',
      },
      table: {
        title: '签署任务',
        description: '轮到您时点“签署”：放置印章、意愿认证后即完成签署；也可拒签或查看详情。',
      },
      card: {
        title: '签署任务',
        description: '轮到您时点“签署”，在手机上放置印章并完成意愿认证。',
      },
      bottom: {
        title: '底部导航',
        description: '随时回到首页，或切换到印章和“我的”。',
      },
    },
  },
};

export const en: typeof zhCN = {
  tour: {
    next: 'Next',
    prev: 'Back',
    finish: 'Got it',
    step: '{{current}} / {{total}}',
    home: {
      nav: {
        title: 'Navigation',
        description: 'Seal service, signing, verification and the open platform are all up here.',
      },
      realName: {
        title: 'Real name first',
        description:
          'Once your real name is verified you can apply for seals and sign documents. Your status shows here.',
      },
      quick: {
        title: 'Shortcuts',
        description: 'My seals, apply for a seal, documents to sign, quick sign, verify and your account.',
      },
      account: {
        title: 'Account and space',
        description:
          'Switch between your personal and organisation spaces, create an organisation, or log out.',
      },
      todo: {
        title: 'Waiting for you',
        description: 'Documents others send you to sign appear here; tap one to sign it.',
      },
      entries: {
        title: 'Shortcuts',
        description: 'Sign, seals, verify, collect a seal and real name, all on your phone.',
      },
      tabs: {
        title: 'Tab bar',
        description: 'Home, seals, signing and your account, one tap away.',
      },
    },
    sealList: {
      filters: {
        title: 'Find a seal',
        description: 'Search by name or code, or filter by status, kind and carrier.',
      },
      batch: {
        title: 'Manage several',
        description: 'Tick seals to enable, disable or cancel them together (seal management permission).',
      },
      table: {
        title: 'Your seals',
        description: "Each seal's image, status and validity; Details shows its certificate and actions.",
      },
      card: {
        title: 'A seal',
        description: "Tap a card for the seal's details, certificate and validity.",
      },
      tabs: {
        title: 'Tab bar',
        description: 'Back to home, or on to signing and your account.',
      },
    },
    signList: {
      tabs: {
        title: 'By state',
        description: 'Waiting for me, waiting for others, done, or everything.',
      },
      search: {
        title: 'Search',
        description: "Type part of a document's name to find its task.",
      },
      table: {
        title: 'Signing tasks',
        description:
          'When it is your turn, Sign lets you place your seal and confirm your intent; you may also refuse.',
      },
      card: {
        title: 'A signing task',
        description: 'When it is your turn, tap Sign to place your seal and confirm on your phone.',
      },
      bottom: {
        title: 'Tab bar',
        description: 'Back to home, or on to seals and your account.',
      },
    },
  },
};
