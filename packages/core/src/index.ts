export * from './errors/catalogue';
export * from './errors/app-error';
export * from './validation/org';
export * from './validation/person';
export * from './constants';
export * as contracts from './contracts/index';
export * from './config-codes';
export * from './verify/index';
