import type { MessageInstance } from 'antd/es/message/interface';

/**
 * antd's static message API cannot see the theme and locale of the app, so the app registers the
 * context-bound instance from <App> here and non-React code (the error handler) uses it.
 */
let instance: MessageInstance | null = null;

export function registerMessageApi(api: MessageInstance | null): void {
  instance = api;
}

export function toastError(text: string, durationMs: number): void {
  void instance?.error({ content: text, duration: durationMs / 1000 });
}

export function toastSuccess(text: string, durationMs = 2_000): void {
  void instance?.success({ content: text, duration: durationMs / 1000 });
}

export function toastWarning(text: string, durationMs = 3_000): void {
  void instance?.warning({ content: text, duration: durationMs / 1000 });
}
