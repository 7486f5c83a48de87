export { OfdViewer } from './ofd-viewer';
export type { OfdViewerProps } from './ofd-viewer';
