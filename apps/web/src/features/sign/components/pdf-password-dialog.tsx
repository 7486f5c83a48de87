import { LockOutlined } from '@ant-design/icons';
import { Input, Modal, Typography } from 'antd';
import type { TFunction } from 'i18next';

/**
 * Asks for the password of a password-protected PDF to sign: the password given, or null when the user
 * leaves the file out. Enter submits; an empty password is not sent.
 */
export function askPdfPassword({
  fileName,
  wrong,
  t,
}: {
  fileName: string;
  wrong: boolean;
  t: TFunction;
}): Promise<string | null> {
  return new Promise((resolve) => {
    let value = '';
    let settled = false;
    const settle = (answer: string | null) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const dialog = Modal.confirm({
      title: t('signQuick.password.title', { name: fileName }),
      icon: <LockOutlined />,
      okText: t('signQuick.password.submit'),
      cancelText: t('signQuick.password.cancel'),
      okButtonProps: { 'data-testid': 'pdf-password-ok' },
      cancelButtonProps: { 'data-testid': 'pdf-password-cancel' },
      content: (
        <div data-testid="pdf-password-dialog">
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {t('signQuick.password.hint')}
          </Typography.Paragraph>
          {wrong ? (
            <Typography.Paragraph type="danger" style={{ marginBottom: 8 }} data-testid="pdf-password-wrong">
              {t('signQuick.password.wrong')}
            </Typography.Paragraph>
          ) : null}
          <Input.Password
            autoFocus
            autoComplete="off"
            maxLength={127}
            aria-label={t('signQuick.password.label')}
            placeholder={t('signQuick.password.label')}
            data-testid="pdf-password-input"
            onChange={(e) => {
              value = e.target.value;
            }}
            onPressEnter={() => {
              if (!value) return;
              dialog.destroy();
              settle(value);
            }}
          />
        </div>
      ),
      // With a parameter, the dialog closes only when told: an empty password keeps it open.
      onOk: (close: () => void) => {
        if (!value) return;
        close();
        settle(value);
      },
      onCancel: () => settle(null),
    });
  });
}
