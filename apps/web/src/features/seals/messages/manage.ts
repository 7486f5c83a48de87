/** Words of the seal manage pages (filled in with the pages). */
export const zhCN = {};

export const en: typeof zhCN = {};
