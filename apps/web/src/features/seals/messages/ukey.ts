/** Words of the UKey pages (filled in with the pages). */
export const zhCN = {};

export const en: typeof zhCN = {};
