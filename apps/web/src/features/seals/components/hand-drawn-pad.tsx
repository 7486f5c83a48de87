import { ClearOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';
import { alphaBounds, fitScale } from '../model/trim-image';

/** Generated seal images stay within 50 KB (spec section 5); a drawing this size fits easily. */
const MAX_SIDE_PX = 600;

/** Cuts the drawing to its strokes and encodes a transparent PNG; null when nothing was drawn. */
async function trimmedPng(source: HTMLCanvasElement): Promise<Blob | null> {
  const ctx = source.getContext('2d');
  if (!ctx) return null;
  const { data } = ctx.getImageData(0, 0, source.width, source.height);
  const box = alphaBounds(data, source.width, source.height);
  if (!box) return null;
  const scale = fitScale(box.width, box.height, MAX_SIDE_PX);
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(box.width * scale));
  out.height = Math.max(1, Math.round(box.height * scale));
  out.getContext('2d')?.drawImage(source, box.x, box.y, box.width, box.height, 0, 0, out.width, out.height);
  return new Promise((resolve) => out.toBlob((blob) => resolve(blob), 'image/png'));
}

/**
 * The drawing pad of a personal hand-drawn seal: smooth strokes in seal red on a transparent background,
 * undo and clear, and on confirm a PNG trimmed to the strokes.
 */
export function HandDrawnPad({
  onConfirm,
  width = 480,
  height = 240,
  color = '#d9001b',
}: {
  onConfirm: (png: Blob) => void;
  width?: number;
  height?: number;
  color?: string;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    // Draw at device resolution so strokes stay sharp on high-density screens.
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    el.width = width * ratio;
    el.height = height * ratio;
    el.getContext('2d')?.scale(ratio, ratio);
    const p = new SignaturePad(el, { penColor: color, minWidth: 1.5, maxWidth: 4.5 });
    p.addEventListener('endStroke', () => setEmpty(p.isEmpty()));
    pad.current = p;
    return () => {
      p.off();
      pad.current = null;
    };
  }, [width, height, color]);

  const undo = () => {
    const p = pad.current;
    if (!p) return;
    const strokes = p.toData();
    strokes.pop();
    p.fromData(strokes);
    setEmpty(p.isEmpty());
  };

  const clear = () => {
    pad.current?.clear();
    setEmpty(true);
  };

  const confirm = async () => {
    if (!canvas.current) return;
    const png = await trimmedPng(canvas.current);
    if (png) onConfirm(png);
  };

  return (
    <div data-testid="hand-drawn-pad">
      <canvas
        ref={canvas}
        data-testid="hand-drawn-canvas"
        style={{
          width,
          height,
          border: '1px dashed #d9d9d9',
          borderRadius: 4,
          touchAction: 'none',
          background: '#fff',
        }}
      />
      <Space style={{ marginTop: 12 }}>
        <Button icon={<UndoOutlined />} onClick={undo} disabled={empty}>
          {t('sealPreview.undo')}
        </Button>
        <Button icon={<ClearOutlined />} onClick={clear} disabled={empty}>
          {t('sealPreview.clear')}
        </Button>
        <Button
          type="primary"
          onClick={() => void confirm()}
          disabled={empty}
          data-testid="hand-drawn-confirm"
        >
          {t('sealPreview.useDrawing')}
        </Button>
      </Space>
    </div>
  );
}
