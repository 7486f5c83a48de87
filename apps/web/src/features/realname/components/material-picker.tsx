import { CheckCircleFilled, UploadOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleApiError } from '../../../lib/api-error-handler';
import { uploadMaterial, type MaterialKind, type RealNameMaterial } from '../api/realname';
import { MATERIAL_ACCEPT, materialProblem } from '../model/material';

export interface MaterialPickerProps {
  kind: MaterialKind;
  value: RealNameMaterial | null;
  onChange: (material: RealNameMaterial | null) => void;
}

/** One manual-path material: checked here (jpg/png/pdf, 10 MB), then uploaded at once; the server checks again. */
export function MaterialPicker({ kind, value, onChange }: MaterialPickerProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const bad = materialProblem(file);
    if (bad) {
      setProblem(bad === 'type' ? t('realNameFlow.materialType') : t('realNameFlow.materialSize'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      onChange(await uploadMaterial(kind, file));
    } catch (error) {
      onChange(null);
      handleApiError(error);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div data-testid={`realname-${kind}`} data-file-key={value?.fileKey ?? ''}>
      <input
        ref={input}
        type="file"
        accept={MATERIAL_ACCEPT}
        style={{ display: 'none' }}
        onChange={(e) => void pick(e.target.files?.[0])}
        data-testid={`realname-${kind}-input`}
      />
      <Space wrap>
        <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
          {value ? t('realNameFlow.materialReplace') : t('realNameFlow.materialPick')}
        </Button>
        {value ? (
          <Typography.Text type="success" data-testid={`realname-${kind}-name`}>
            <CheckCircleFilled /> {value.fileName} ({Math.max(1, Math.round(value.size / 1024))} KB)
          </Typography.Text>
        ) : null}
      </Space>
      {problem ? (
        <div>
          <Typography.Text type="danger">{problem}</Typography.Text>
        </div>
      ) : null}
    </div>
  );
}
