/** Words of the seal preview canvas and the hand-drawn pad. */
export const zhCN = {
  sealPreview: {
    download: '下载印章图片',
    print: '按实际尺寸打印',
    saveTemplate: '保存模板',
    loadTemplate: '载入模板',
    badTemplate: '模板文件无效，无法载入',
    glyphsFailed: '印章字形加载失败',
    undo: '撤销',
    clear: '清空',
    useDrawing: '使用此签名',
  },
};

export const en: typeof zhCN = {
  sealPreview: {
    download: 'Download seal image',
    print: 'Print at real size',
    saveTemplate: 'Save template',
    loadTemplate: 'Load template',
    badTemplate: 'The template file is invalid and cannot be loaded',
    glyphsFailed: 'The seal glyphs could not be loaded',
    undo: 'Undo',
    clear: 'Clear',
    useDrawing: 'Use this drawing',
  },
};
