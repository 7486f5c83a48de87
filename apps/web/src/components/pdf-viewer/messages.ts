/** Words of the shared PDF viewer, merged into the translation namespace by `src/app/i18n`. */
export const zhCN = {
  pdfViewer: {
    loading: '正在打开文档…',
    failed: '文档无法显示',
    failedText: '浏览器无法读取该 PDF 文件（{{reason}}）。',
    encrypted: '该文档已加密，无法在浏览器中预览。',
    invalid: '该文件不是有效的 PDF 文档，或已损坏。',
    page: '第 {{page}} 页',
    zoomIn: '放大',
    zoomOut: '缩小',
  },
};

export const en: typeof zhCN = {
  pdfViewer: {
    loading: 'Opening the document…',
    failed: 'The document cannot be shown',
    failedText: 'The browser cannot read this PDF ({{reason}}).',
    encrypted: 'The document is encrypted and cannot be previewed in the browser.',
    invalid: 'The file is not a valid PDF document, or it is damaged.',
    page: 'Page {{page}}',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
  },
};
