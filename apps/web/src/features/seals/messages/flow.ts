/** Words of the seal flow pages (filled in with the pages). */
export const zhCN = {};

export const en: typeof zhCN = {};
