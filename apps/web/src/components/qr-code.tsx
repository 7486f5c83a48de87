import { MobileOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Popover, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../lib/api-client';

interface QrCodeAnswer {
  content: string;
  format: 'svg' | 'png';
  image: string;
}

/** A QR code of an address of this site (POST /v1/qrcode/genQRCode), with a caption under it. */
export function QrCode({
  address,
  caption,
  testId = 'qr-code',
}: {
  address: string;
  caption: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const qr = useQuery({
    queryKey: ['qrcode', address],
    queryFn: () => apiPost<QrCodeAnswer>('/v1/qrcode/genQRCode', { content: address, format: 'svg' }),
    staleTime: Infinity,
  });
  return (
    <div
      style={{ width: 200, textAlign: 'center' }}
      data-testid={testId}
      data-content={qr.data?.content ?? ''}
    >
      {qr.data ? (
        <img
          src={qr.data.image}
          alt={t('qrCode.alt')}
          width={180}
          height={180}
          style={{ display: 'block', margin: '0 auto' }}
        />
      ) : (
        <div style={{ height: 180, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Spin />
        </div>
      )}
      <div style={{ marginTop: 8, fontSize: 13, color: 'var(--os-text-2)' }}>{caption}</div>
    </div>
  );
}

/** "Continue on the phone": a button that shows the QR code of the same page's phone version. */
export function PhoneQrButton({
  address,
  caption,
  testId = 'phone-qr',
}: {
  address: string;
  caption: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      content={<QrCode address={address} caption={caption} testId={`${testId}-code`} />}
    >
      <Button icon={<MobileOutlined />} data-testid={testId}>
        {t('qrCode.onPhone')}
      </Button>
    </Popover>
  );
}
