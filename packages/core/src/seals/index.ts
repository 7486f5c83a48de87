export * from './state-machines';
export * from './kinds';
