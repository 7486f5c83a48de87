/** Words of the seal apply pages (filled in with the pages). */
export const zhCN = {};

export const en: typeof zhCN = {};
