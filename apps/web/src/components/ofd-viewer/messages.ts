/** Words of the shared OFD viewer, merged into the translation namespace by `src/app/i18n`. */
export const zhCN = {
  ofdViewer: {
    loading: '正在打开 OFD 文档…',
    failed: 'OFD 文档无法显示',
    failedText: '该文件不是可读取的 OFD 文档（{{reason}}）。',
    page: '第 {{page}} 页',
    seals: '该文档带有 {{count}} 个电子签章（{{names}}），此处按原位置显示印章图像；OFD 签章的验证尚未提供。',
    missing: '文档引用的部分内容缺失，已按现有内容显示：{{parts}}',
  },
};

export const en: typeof zhCN = {
  ofdViewer: {
    loading: 'Opening the OFD document…',
    failed: 'The OFD document cannot be shown',
    failedText: 'The file is not a readable OFD document ({{reason}}).',
    page: 'Page {{page}}',
    seals:
      'The document carries {{count}} electronic seal(s) ({{names}}), drawn where they sit; verification of OFD seals is not available yet.',
    missing: 'Parts the document names are missing; it is shown without them: {{parts}}',
  },
};
