import { Alert, Spin, Tabs, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlowFileBytes } from '../api/flows';
import type { FlowFile } from '../api/types';
import { OfdViewer } from '../../../components/ofd-viewer';
import { mmToPx, PdfViewer, ptToMm } from '../../../components/pdf-viewer';
import type { SizeMm } from '../model/placement-geometry';

/**
 * The files of a flow in tabs, each shown in the viewer from its current (latest signed) bytes. OFD files
 * are shown by the OFD viewer, with a note that they cannot be signed yet; placements are on PDF pages.
 * `overlay` draws on each page of a PDF (placements), told the displayed page's size in millimetres and the
 * viewer's scale in pixels per millimetre.
 */
export type FileOverlay = (file: FlowFile, page: number, size: SizeMm, pxPerMm: number) => ReactNode;

export function FlowFileTabs({
  flowId,
  files,
  overlay,
  active,
  onActive,
}: {
  flowId: string;
  files: readonly FlowFile[];
  overlay?: FileOverlay;
  active?: string;
  onActive?: (fileId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Tabs
      activeKey={active}
      onChange={onActive}
      data-testid="flow-file-tabs"
      items={files.map((f) => ({
        key: f.fileId,
        label: (
          <span data-testid="flow-file-tab" data-file-id={f.fileId}>
            {f.name}{' '}
            <Tag color={f.role === 'contract' ? 'blue' : 'default'} style={{ marginInlineEnd: 0 }}>
              {t(`signCommon.fileRole.${f.role}`)}
            </Tag>
          </span>
        ),
        children: <FlowFileView flowId={flowId} file={f} overlay={overlay} />,
      }))}
    />
  );
}

export function FlowFileView({
  flowId,
  file,
  overlay,
}: {
  flowId: string;
  file: FlowFile;
  overlay?: FileOverlay;
}) {
  const { t } = useTranslation();
  const bytes = useFlowFileBytes(flowId, file.fileId, file.currentSha256);
  if (bytes.isError) return <Alert type="error" showIcon title={t('signPlace.viewerFailed')} />;
  if (!bytes.data)
    return (
      <div style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
      </div>
    );
  return (
    <div
      className="os-flow-file-scroll"
      style={{
        background: 'var(--os-bg)',
        padding: 12,
        borderRadius: 6,
        maxHeight: '75vh',
        overflow: 'auto',
      }}
    >
      {file.format === 'ofd' ? (
        <>
          <Alert type="info" showIcon title={t('signCommon.ofdPending')} data-testid="ofd-pending" />
          <OfdViewer data={bytes.data} maxWidth={820} testId="flow-file-viewer" />
        </>
      ) : (
        <PdfViewer
          source={{ data: bytes.data }}
          password={file.password}
          maxWidth={820}
          zoomable
          testId="flow-file-viewer"
          renderOverlay={
            overlay
              ? (info) =>
                  overlay(
                    file,
                    info.page,
                    { widthMm: ptToMm(info.widthPt), heightMm: ptToMm(info.heightPt) },
                    mmToPx(1, info.scale),
                  )
              : undefined
          }
        />
      )}
    </div>
  );
}
