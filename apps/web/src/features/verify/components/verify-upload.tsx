import { InboxOutlined } from '@ant-design/icons';
import { Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkFile, formatMb, formatSize, looksLikePdf } from '../model/verify-report';

/**
 * The upload area: one PDF, dragged or picked. Type and size are checked here first (the server checks
 * again); a refused file is reported through `onRefused` with a message in the user's language.
 */
export function VerifyUpload({
  maxBytes,
  disabled,
  onFile,
  onRefused,
}: {
  maxBytes: number;
  disabled?: boolean;
  onFile: (file: File, bytes: Uint8Array) => void;
  onRefused: (message: string) => void;
}) {
  const { t } = useTranslation();
  const limit = formatMb(maxBytes);
  return (
    <div data-testid="verify-upload">
      <Upload.Dragger
        accept=".pdf,application/pdf"
        multiple={false}
        maxCount={1}
        showUploadList={false}
        disabled={disabled}
        beforeUpload={(file) => {
          void (async () => {
            const problem = checkFile(file, maxBytes);
            if (problem) {
              onRefused(t(`verify.error.${problem}`, { size: formatSize(file.size), limit }));
              return;
            }
            const bytes = new Uint8Array(await file.arrayBuffer());
            if (!looksLikePdf(bytes)) {
              onRefused(t('verify.error.notPdf'));
              return;
            }
            onFile(file, bytes);
          })();
          // The file goes through our own transport, not antd's.
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('verify.upload.title')}</p>
        <p className="ant-upload-hint" data-testid="verify-upload-hint">
          {t('verify.upload.hint', { limit })}
        </p>
      </Upload.Dragger>
    </div>
  );
}
