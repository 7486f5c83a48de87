/** Tiny app-wide signals for things that non-React code asks the UI to show. */
type Handler = () => void;
const realNameHandlers = new Set<Handler>();

export function onRealNameRequired(handler: Handler): () => void {
  realNameHandlers.add(handler);
  return () => realNameHandlers.delete(handler);
}

export function emitRealNameRequired(): void {
  for (const handler of realNameHandlers) handler();
}
