export * from './state-machines';
