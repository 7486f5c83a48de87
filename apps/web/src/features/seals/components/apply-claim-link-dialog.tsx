import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/app-dialog';
import { isApiError } from '../../../lib/api-client';
import { toastError, toastSuccess } from '../../../lib/feedback';
import { claimLink, type ClaimLink } from '../api/apply';
import { absoluteUrl } from '../model/apply-records';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The claim link of spec section 6: only the legal representative claims, so anyone else gets a signed,
 * expiring address of /getSealFlow to send them. Each opening asks the server for a fresh link.
 */
export function ApplyClaimLinkDialog({
  applyNos,
  onClose,
}: {
  /** The applications the link claims; null keeps the dialog closed. */
  applyNos: readonly string[] | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [link, setLink] = useState<ClaimLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = applyNos?.join(',') ?? '';

  useEffect(() => {
    if (!key) return;
    let current = true;
    setLink(null);
    setError(null);
    claimLink(key.split(','))
      .then((l) => current && setLink(l))
      .catch((e: unknown) => current && setError(isApiError(e) ? e.message : String(e)));
    return () => {
      current = false;
    };
  }, [key]);

  const url = link ? absoluteUrl(window.location.origin, link.url) : '';
  const copy = async () => {
    if (await copyText(url)) toastSuccess(t('sealApply.link.copied'));
    else toastError(t('sealApply.link.copyFailed'), 3_000);
  };

  return (
    <AppDialog
      open={applyNos !== null}
      title={t('sealApply.link.title')}
      onCancel={onClose}
      footer={
        <Button onClick={onClose} data-testid="claim-link-close">
          {t('sealApply.link.close')}
        </Button>
      }
    >
      <div data-testid="claim-link-dialog">
        <Alert type="info" showIcon title={t('sealApply.link.onlyLegal')} style={{ marginBottom: 16 }} />
        {error ? (
          <Alert type="error" showIcon title={error} data-testid="claim-link-error" />
        ) : !link ? (
          <div style={{ textAlign: 'center', padding: 24 }}>
            <Spin />
          </div>
        ) : (
          <Space orientation="vertical" size={8} style={{ width: '100%' }}>
            <Typography.Text strong>{t('sealApply.link.url')}</Typography.Text>
            <Space.Compact style={{ width: '100%' }}>
              <Input readOnly value={url} data-testid="claim-link-url" onFocus={(e) => e.target.select()} />
              <Button
                type="primary"
                icon={<CopyOutlined />}
                onClick={() => void copy()}
                data-testid="claim-link-copy"
              >
                {t('sealApply.link.copy')}
              </Button>
            </Space.Compact>
            <Typography.Text type="secondary" data-testid="claim-link-expires">
              {t('sealApply.link.expiresAt', {
                time: new Date(link.expiresAt).toLocaleString(i18n.language),
              })}
            </Typography.Text>
          </Space>
        )}
      </div>
    </AppDialog>
  );
}
