export * from './reasons';
