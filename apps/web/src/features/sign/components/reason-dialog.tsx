import { Form, Input } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { handleApiError } from '../../../lib/api-error-handler';
import { AppDialog } from '../../../components/app-dialog';

/** A dialog that asks for a reason (required or optional) and runs an act with it. */
export interface ReasonAsk {
  title: ReactNode;
  required: boolean;
  run: (reason: string) => Promise<unknown>;
  /** data-testid prefix of the dialog's parts. */
  testId?: string;
}

export function useReasonDialog() {
  const { t } = useTranslation();
  const [ask, setAsk] = useState<ReasonAsk | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const testId = ask?.testId ?? 'reason';
  const missing = Boolean(ask?.required) && reason.trim() === '';
  const close = () => {
    setAsk(null);
    setReason('');
    setTouched(false);
  };
  const submit = async () => {
    setTouched(true);
    if (!ask || missing) return;
    setBusy(true);
    try {
      await ask.run(reason.trim());
      close();
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };
  const dialog = (
    <AppDialog
      open={ask !== null}
      title={ask?.title}
      onCancel={close}
      onOk={() => void submit()}
      okText={t('signCommon.confirm')}
      cancelText={t('signCommon.cancel')}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': `${testId}-confirm` }}
    >
      <Form layout="vertical">
        <Form.Item
          label={t('signCommon.reason')}
          required={ask?.required}
          validateStatus={touched && missing ? 'error' : undefined}
          help={touched && missing ? t('signCommon.reasonRequired') : undefined}
        >
          <Input.TextArea
            rows={3}
            maxLength={200}
            showCount
            value={reason}
            placeholder={t('signCommon.reasonPlaceholder')}
            onChange={(e) => setReason(e.target.value)}
            data-testid={`${testId}-input`}
          />
        </Form.Item>
      </Form>
    </AppDialog>
  );
  return { open: (a: ReasonAsk) => setAsk(a), dialog };
}
