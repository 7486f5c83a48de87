export { buildApp, type BuildAppOptions } from './app';
export { loadConfig, type AppConfig } from './config';
