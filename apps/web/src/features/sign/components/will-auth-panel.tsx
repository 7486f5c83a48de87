import { ExperimentOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleApiError } from '../../../lib/api-error-handler';
import { useCountdown } from '../../../hooks/use-countdown';
import { sendWillCode, verifyWill } from '../api/will';
import type { WillStatusResponse } from '../api/types';

/**
 * Will-auth (intent confirmed by an SMS code): the masked mobile, a send button with its countdown, a
 * "sandbox" tag when the SMS provider is the sandbox, and the code. Used by the dialog of the signing
 * pages and by the stand-alone /willAuthPage.
 */
export function WillAuthPanel({
  willBizId,
  mobile,
  onVerified,
}: {
  willBizId: string;
  mobile: string;
  onVerified: (status: WillStatusResponse) => void;
}) {
  const { t } = useTranslation();
  const [left, startCountdown] = useCountdown();
  const [sent, setSent] = useState<{ sandbox: boolean } | null>(null);
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [verifying, setVerifying] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      const r = await sendWillCode(willBizId);
      setSent({ sandbox: r.sandbox });
      startCountdown(r.resendAfterSeconds);
    } catch (error) {
      handleApiError(error);
    } finally {
      setSending(false);
    }
  };
  const verify = async () => {
    setVerifying(true);
    try {
      onVerified(await verifyWill(willBizId, code.trim()));
    } catch (error) {
      handleApiError(error);
    } finally {
      setVerifying(false);
    }
  };

  return (
    <div data-testid="will-auth-panel" data-will-biz-id={willBizId}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Paragraph style={{ margin: 0 }}>
          <SafetyCertificateOutlined style={{ color: 'var(--os-primary)', marginRight: 8 }} />
          {t('signWill.explain')}
        </Typography.Paragraph>
        <div>
          <Typography.Text type="secondary">{t('signWill.mobile')}</Typography.Text>{' '}
          <Typography.Text strong data-testid="will-mobile">
            {mobile}
          </Typography.Text>
          {sent?.sandbox ? (
            <Tag
              color="gold"
              icon={<ExperimentOutlined />}
              style={{ marginLeft: 8 }}
              data-testid="will-sandbox"
            >
              {t('signCommon.sandbox')}
            </Tag>
          ) : null}
        </div>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            value={code}
            maxLength={8}
            inputMode="numeric"
            placeholder={t('signWill.codePlaceholder')}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            onPressEnter={() => void verify()}
            data-testid="will-code"
          />
          <Button onClick={() => void send()} loading={sending} disabled={left > 0} data-testid="will-send">
            {left > 0
              ? t('signWill.resendIn', { seconds: left })
              : sent
                ? t('signWill.resend')
                : t('signWill.send')}
          </Button>
        </Space.Compact>
        {sent?.sandbox ? <Alert type="warning" showIcon title={t('signWill.sandboxNotice')} /> : null}
        <Button
          type="primary"
          block
          disabled={code.trim().length < 4}
          loading={verifying}
          onClick={() => void verify()}
          data-testid="will-verify"
        >
          {t('signWill.verify')}
        </Button>
      </Space>
    </div>
  );
}
