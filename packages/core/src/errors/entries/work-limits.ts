import type { CatalogueEntry } from '../catalogue';

/**
 * Catalogue entries of the limits on work done for a request (issue 13: nothing small stalls the server):
 * decode budgets and structure limits of files (5101–5119), and the worker pool's deadlines and memory
 * (12201–12219). Merged into the catalogue in catalogue.ts.
 */
export const WORK_LIMITS_ENTRIES = [
  {
    code: 5101,
    http: 400,
    key: 'file.imagePixels',
    handling: 'toastFail',
    zh: '图片像素过多（{{width}} × {{height}}），最多 {{maxPixels}} 像素',
    en: 'The image has too many pixels ({{width}} × {{height}}); at most {{maxPixels}} are allowed',
  },
  {
    code: 5102,
    http: 400,
    key: 'file.tooComplex',
    handling: 'toastFail',
    zh: '文件内容过于复杂（嵌套层级、节点数量、实体声明或解压大小超出限制），无法处理',
    en: 'The file is too complex to process (nesting, node count, entity declarations or unpacked size over the limits)',
  },
  {
    code: 12201,
    http: 400,
    key: 'work.timeout',
    handling: 'toastFail',
    zh: '文件过于复杂，处理超时，已停止',
    en: 'The file is too complex: processing it took too long and was stopped',
  },
  {
    code: 12202,
    http: 400,
    key: 'work.outOfMemory',
    handling: 'toastFail',
    zh: '文件过于复杂，处理所需内存超出限制，已停止',
    en: 'The file is too complex: processing it needed more memory than allowed and was stopped',
  },
  {
    code: 12203,
    http: 503,
    key: 'work.busy',
    handling: 'toastFail',
    zh: '服务器繁忙，请稍后重试',
    en: 'The server is busy; try again shortly',
  },
] as const satisfies readonly CatalogueEntry[];
