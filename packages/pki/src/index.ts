import 'reflect-metadata';

export type * from './types';
export * from './cms/index';
