export * from './reasons';
export * from './ofd-reasons';
