import { DeleteOutlined, FileOutlined, InboxOutlined } from '@ant-design/icons';
import { Button, List, Radio, Tag, Typography, Upload } from 'antd';
import { entryForKey } from '@openseal/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleApiError } from '../../../lib/api-error-handler';
import { isApiError } from '../../../lib/api-client';
import { toastError } from '../../../lib/feedback';
import { askPdfPassword } from './pdf-password-dialog';
import { uploadSignFile } from '../api/flows';
import {
  formatBytes,
  MAX_SIGN_FILES,
  refuseFile,
  sha256Hex,
  sniffFormat,
  type FileRole,
  type PickedFile,
} from '../model/upload-rules';

const PASSWORD_REQUIRED = entryForKey('pdf.passwordRequired').code;
const PASSWORD_WRONG = entryForKey('pdf.passwordWrong').code;

/**
 * Step 1 of quick sign: drag or pick pdf and ofd files. Each is judged by its bytes, hashed (SHA-256,
 * Web Crypto) to refuse a second copy, and stored through the upload endpoint (which checks type and size
 * again); the list marks each file a contract or an attachment.
 */
export function SignFileUpload({
  files,
  onChange,
}: {
  files: readonly PickedFile[];
  onChange: (next: PickedFile[]) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(0);
  // Files picked together arrive one by one; the ref sees the ones accepted a moment ago.
  const current = useRef<PickedFile[]>([...files]);
  current.current = [...files];

  const add = async (file: File) => {
    setBusy((n) => n + 1);
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const format = sniffFormat(bytes);
      const sha256 = await sha256Hex(bytes);
      const refusal = refuseFile(current.current, { size: bytes.length, sha256, format });
      if (refusal) {
        toastError(t(`signQuick.refusal.${refusal}`, { name: file.name, max: MAX_SIGN_FILES }), 3_000);
        return;
      }
      const picked: PickedFile = {
        uid: `${sha256.slice(0, 12)}_${Date.now()}`,
        name: file.name,
        size: bytes.length,
        sha256,
        format: format ?? 'pdf',
        role: current.current.some((f) => f.role === 'contract') ? 'attachment' : 'contract',
        fileKey: null,
      };
      current.current = [...current.current, picked];
      onChange(current.current);
      try {
        const stored = await storeWithPassword(file);
        if (stored) {
          current.current = current.current.map((f) =>
            f.uid === picked.uid ? { ...f, fileKey: stored.fileKey } : f,
          );
        } else current.current = current.current.filter((f) => f.uid !== picked.uid);
      } catch (error) {
        // The server's reason (size limit, content) is the message shown; the file leaves the list.
        current.current = current.current.filter((f) => f.uid !== picked.uid);
        handleApiError(error);
      }
      onChange(current.current);
    } finally {
      setBusy((n) => n - 1);
    }
  };

  /**
   * Stores the file; a password-protected PDF asks for its password until the server opens it with it,
   * or the user leaves the file out (null).
   */
  const storeWithPassword = async (file: File) => {
    let password: string | undefined;
    for (;;) {
      try {
        return await uploadSignFile(file, password);
      } catch (error) {
        const code = isApiError(error) ? error.code : null;
        if (code !== PASSWORD_REQUIRED && code !== PASSWORD_WRONG) throw error;
        const given = await askPdfPassword({ fileName: file.name, wrong: code === PASSWORD_WRONG, t });
        if (given === null) return null;
        password = given;
      }
    }
  };

  const setRole = (uid: string, role: FileRole) =>
    onChange(files.map((f) => (f.uid === uid ? { ...f, role } : f)));
  const remove = (uid: string) => onChange(files.filter((f) => f.uid !== uid));

  return (
    <div data-testid="sign-upload">
      <Upload.Dragger
        multiple
        accept=".pdf,.ofd,application/pdf"
        showUploadList={false}
        disabled={files.length >= MAX_SIGN_FILES}
        beforeUpload={(file) => {
          void add(file);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('signQuick.uploadText')}</p>
        <p className="ant-upload-hint">{t('signQuick.uploadHint', { max: MAX_SIGN_FILES })}</p>
      </Upload.Dragger>
      <List
        style={{ marginTop: 16 }}
        loading={busy > 0}
        dataSource={[...files]}
        locale={{ emptyText: t('signQuick.noFiles') }}
        data-testid="sign-file-list"
        renderItem={(f) => (
          <List.Item
            data-testid="sign-file"
            data-name={f.name}
            data-stored={f.fileKey ? 'true' : 'false'}
            actions={[
              <Radio.Group
                key="role"
                size="small"
                optionType="button"
                value={f.role}
                onChange={(e) => setRole(f.uid, e.target.value as FileRole)}
                options={(['contract', 'attachment'] as const).map((r) => ({
                  value: r,
                  label: t(`signCommon.fileRole.${r}`),
                }))}
                data-testid="sign-file-role"
              />,
              <Button
                key="remove"
                type="text"
                danger
                icon={<DeleteOutlined />}
                onClick={() => remove(f.uid)}
                aria-label={t('signQuick.remove')}
                data-testid="sign-file-remove"
              />,
            ]}
          >
            <List.Item.Meta
              avatar={<FileOutlined style={{ fontSize: 20, color: 'var(--os-primary)' }} />}
              title={
                <span>
                  {f.name} <Tag>{f.format.toUpperCase()}</Tag>
                  {f.format === 'ofd' ? <Tag color="orange">{t('signCommon.ofdPending')}</Tag> : null}
                </span>
              }
              description={
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatBytes(f.size)} · SHA-256 {f.sha256.slice(0, 16)}… ·{' '}
                  {f.fileKey ? t('signQuick.stored') : t('signQuick.uploading')}
                </Typography.Text>
              }
            />
          </List.Item>
        )}
      />
    </div>
  );
}
