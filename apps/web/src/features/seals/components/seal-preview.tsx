import { DownloadOutlined, FolderOpenOutlined, PrinterOutlined, SaveOutlined } from '@ant-design/icons';
import { parseTemplate, renderSvg, templateText, type SealTemplate } from '@openseal/seal-image';
import { Alert, Button, Space, Spin, Upload } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../lib/feedback';
import { useGlyphs } from '../api/glyphs';

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * The seal preview canvas (spec section 2): the same engine as the server draws the template from glyph
 * outlines the server answers, onto a canvas at 400 dpi. The picture downloads as seal.png, prints at its
 * real size in millimetres, and the template saves as JSON and loads back from a file.
 */
export function SealPreview({
  template,
  onTemplateLoaded,
  displayPx = 220,
}: {
  template: SealTemplate;
  /** Called with a template read from a file; without it the load button is hidden. */
  onTemplateLoaded?: (template: SealTemplate) => void;
  displayPx?: number;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const glyphs = useGlyphs(templateText(template), template.contentInfo.font || undefined);
  const [drawn, setDrawn] = useState(false);

  const svg = useMemo(() => {
    if (!glyphs.data) return null;
    try {
      return renderSvg(template, glyphs.data);
    } catch {
      return null;
    }
  }, [template, glyphs.data]);

  useEffect(() => {
    setDrawn(false);
    if (!svg || !canvas.current) return;
    const target = canvas.current;
    const img = new Image();
    img.onload = () => {
      target.width = img.naturalWidth;
      target.height = img.naturalHeight;
      const ctx = target.getContext('2d');
      if (!ctx) return;
      ctx.clearRect(0, 0, target.width, target.height);
      ctx.drawImage(img, 0, 0);
      setDrawn(true);
    };
    img.src = svgUrl(svg);
  }, [svg]);

  const download = () => canvas.current?.toBlob((blob) => blob && saveBlob(blob, 'seal.png'), 'image/png');

  const print = () => {
    if (!canvas.current) return;
    const w = window.open('', '_blank', 'noopener=no');
    if (!w) return;
    const { realWidth, realHeight } = template.baseInfo;
    const doc = w.document;
    doc.title = 'seal';
    const style = doc.createElement('style');
    style.textContent = '@page { margin: 20mm } body { margin: 0 } img { display: block }';
    doc.head.append(style);
    const img = doc.createElement('img');
    img.src = canvas.current.toDataURL('image/png');
    // The real size, so a print can be laid over a paper impression.
    img.style.width = `${realWidth}mm`;
    img.style.height = `${realHeight}mm`;
    img.onload = () => {
      w.focus();
      w.print();
    };
    doc.body.append(img);
  };

  const saveTemplate = () =>
    saveBlob(
      new Blob([JSON.stringify(template, null, 2)], { type: 'application/json' }),
      'seal-template.json',
    );

  const loadTemplate = async (file: File) => {
    try {
      onTemplateLoaded?.(parseTemplate(JSON.parse(await file.text())));
    } catch {
      toastError(t('sealPreview.badTemplate'), 3_000);
    }
  };

  return (
    <div className="os-seal-preview" data-testid="seal-preview">
      <div
        style={{
          width: displayPx,
          height: displayPx,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          background: 'repeating-conic-gradient(#f5f5f5 0 25%, #fff 0 50%) 0 0 / 16px 16px',
          border: '1px solid #f0f0f0',
        }}
      >
        {glyphs.isError ? (
          <Alert type="error" title={t('sealPreview.glyphsFailed')} />
        ) : (
          <>
            {!drawn ? <Spin /> : null}
            <canvas
              ref={canvas}
              data-testid="seal-preview-canvas"
              data-drawn={drawn ? 'true' : 'false'}
              style={{ maxWidth: '100%', maxHeight: '100%', display: drawn ? 'block' : 'none' }}
            />
          </>
        )}
      </div>
      <Space wrap style={{ marginTop: 12 }}>
        <Button icon={<DownloadOutlined />} disabled={!drawn} onClick={download} data-testid="seal-download">
          {t('sealPreview.download')}
        </Button>
        <Button icon={<PrinterOutlined />} disabled={!drawn} onClick={print} data-testid="seal-print">
          {t('sealPreview.print')}
        </Button>
        <Button icon={<SaveOutlined />} onClick={saveTemplate} data-testid="seal-save-template">
          {t('sealPreview.saveTemplate')}
        </Button>
        {onTemplateLoaded ? (
          <Upload
            accept=".json,application/json"
            showUploadList={false}
            beforeUpload={(file) => {
              void loadTemplate(file);
              return false;
            }}
          >
            <Button icon={<FolderOpenOutlined />} data-testid="seal-load-template">
              {t('sealPreview.loadTemplate')}
            </Button>
          </Upload>
        ) : null}
      </Space>
    </div>
  );
}
