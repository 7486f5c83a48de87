export * from './common';
export * from './accounts';
export * from './organizes';
export * from './config';
export * from './files';
export * from './verify';
