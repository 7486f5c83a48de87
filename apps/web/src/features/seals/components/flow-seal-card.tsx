import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Descriptions, Spin, theme, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkOrderPreview, type WorkOrder } from '../api/flow';
import { useSeal } from '../api/seals';
import { StatusTag } from './status-tag';

const PREVIEW_PX = 132;

/** A square frame for a seal picture, or a quiet placeholder when there is none. */
export function FlowSealImage({
  src,
  loading = false,
  alt,
  testId,
}: {
  src: string | null | undefined;
  loading?: boolean;
  alt: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  let body: ReactNode;
  if (loading) body = <Spin size="small" />;
  else if (src)
    body = (
      <img
        src={src}
        alt={alt}
        data-testid={testId}
        style={{ maxWidth: PREVIEW_PX - 16, maxHeight: PREVIEW_PX - 16, objectFit: 'contain' }}
      />
    );
  else
    body = (
      <Typography.Text type="secondary" style={{ textAlign: 'center', fontSize: 12 }}>
        <SafetyCertificateOutlined style={{ fontSize: 28, display: 'block', marginBottom: 6 }} />
        {t('sealFlow.previewNone')}
      </Typography.Text>
    );
  return (
    <div
      style={{
        width: PREVIEW_PX,
        height: PREVIEW_PX,
        flex: `0 0 ${PREVIEW_PX}px`,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: `repeating-conic-gradient(${token.colorFillQuaternary} 0% 25%, #fff 0% 50%) 50% / 16px 16px`,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: 6,
      }}
    >
      {body}
    </div>
  );
}

/** The facts of one seal to claim, beside the impression the server will make for it. */
export function FlowSealCard({ order }: { order: WorkOrder }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const preview = useWorkOrderPreview(order);
  return (
    <div
      data-testid="flow-seal"
      data-id={order.applyNo}
      data-status={order.status}
      style={{
        display: 'flex',
        gap: 20,
        alignItems: 'center',
        padding: 16,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: 8,
        background: '#fff',
      }}
    >
      <FlowSealImage
        src={preview.data?.image}
        loading={preview.isLoading}
        alt={t('sealFlow.previewAlt')}
        testId="flow-seal-preview"
      />
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        style={{ flex: 1, minWidth: 0 }}
        title={
          <span data-testid="flow-seal-name" style={{ fontSize: 16 }}>
            {order.sealName}
          </span>
        }
        items={[
          { key: 'kind', label: t('sealFlow.sealKind'), children: t(`sealCommon.kind.${order.sealKind}`) },
          {
            key: 'type',
            label: t('sealFlow.drawType'),
            children: t(`sealCommon.drawType.${order.sealType}`),
          },
          {
            key: 'carrier',
            label: t('sealFlow.carrier'),
            children: t(`sealCommon.carrier.${order.carrier}`),
          },
          {
            key: 'size',
            label: t('sealFlow.size'),
            children: t('sealFlow.sizeValue', { w: order.widthMm, h: order.heightMm }),
          },
          { key: 'applyNo', label: t('sealFlow.applyNo'), children: order.applyNo },
          {
            key: 'status',
            label: t('sealFlow.status'),
            children: <StatusTag set="workOrderStatus" value={order.status} />,
          },
        ]}
      />
    </div>
  );
}

/** A made seal's picture, read from the seal itself (a signed, expiring address). */
export function MadeSealImage({ sealCode }: { sealCode: string | null }) {
  const { t } = useTranslation();
  const seal = useSeal(sealCode);
  return (
    <FlowSealImage
      src={seal.data?.imageUrl}
      loading={seal.isLoading && sealCode !== null}
      alt={seal.data?.name ?? t('sealFlow.previewAlt')}
      testId="flow-made-image"
    />
  );
}
