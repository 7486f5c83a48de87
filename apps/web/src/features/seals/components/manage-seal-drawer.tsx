import { LIMITS } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Result,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { WarningDialog } from '../../../components/warning-dialog';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { renewSealCertificate, type CertRenewal } from '../api/manage';
import { SEALS_KEY, useSeal, type Seal, type SealDetail } from '../api/seals';
import {
  actionsOf,
  canApplyChange,
  expiryHint,
  formatDateTime,
  formatDay,
  renewalState,
  type ManageAction,
} from '../model/manage-seals';
import { StatusTag } from './status-tag';

type Renewal = SealDetail['renewals'][number];

/** The seal image on a light panel, or a placeholder when it has none. */
export function ManageSealImage({
  seal,
  size,
  placeholder,
}: {
  seal: Pick<Seal, 'imageUrl' | 'name'>;
  size: number;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className="os-seal-image"
      style={{
        width: size,
        height: size,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        flex: 'none',
        background: '#fafbfc',
        border: '1px solid var(--os-border)',
        borderRadius: 6,
        overflow: 'hidden',
      }}
    >
      {seal.imageUrl ? (
        <img
          src={seal.imageUrl}
          alt={seal.name}
          data-testid="seal-image"
          style={{ maxWidth: '88%', maxHeight: '88%', objectFit: 'contain' }}
        />
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {placeholder ?? t('sealManage.noImage')}
        </Typography.Text>
      )}
    </div>
  );
}

/** The validity of a seal with the "expires in N days" hint inside the renewal window. */
export function ManageValidity({ seal }: { seal: Pick<Seal, 'validFrom' | 'validTo'> }) {
  const { t } = useTranslation();
  const hint = expiryHint(seal.validTo);
  return (
    <Space orientation="vertical" size={2}>
      <span style={{ whiteSpace: 'nowrap' }}>
        {formatDay(seal.validFrom)} ~ {formatDay(seal.validTo)}
      </span>
      {hint ? (
        <Tag
          color={hint.kind === 'ended' ? 'red' : 'orange'}
          data-testid="seal-expiry-hint"
          data-days={hint.kind === 'expiring' ? hint.days : -1}
          style={{ marginInlineEnd: 0 }}
        >
          {hint.kind === 'ended'
            ? t('sealManage.ended')
            : hint.days <= 0
              ? t('sealManage.expiresToday')
              : t('sealManage.expiresIn', { days: hint.days })}
        </Tag>
      ) : null}
    </Space>
  );
}

/**
 * The seal detail drawer of my seals: the image large, every field, the certificate, the renewal window
 * and its history, a pending change, and the actions the seal allows.
 */
export function ManageSealDrawer({
  sealCode,
  canManage,
  onClose,
  onAction,
  onApplyChange,
}: {
  sealCode: string | null;
  canManage: boolean;
  onClose: () => void;
  onAction: (action: ManageAction, seals: Seal[]) => void;
  onApplyChange: (seal: SealDetail) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const detail = useSeal(sealCode);
  const seal = detail.data;
  const [confirmRenew, setConfirmRenew] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const [renewed, setRenewed] = useState<CertRenewal | null>(null);

  const renew = async () => {
    if (!seal) return;
    setRenewing(true);
    try {
      const result = await renewSealCertificate(seal.sealCode);
      setRenewed(result);
      toastSuccess(t('sealManage.renew.success', { validTo: formatDay(result.validTo) }));
      await queryClient.invalidateQueries({ queryKey: SEALS_KEY });
    } catch (error) {
      handleApiError(error);
    } finally {
      setRenewing(false);
      setConfirmRenew(false);
    }
  };

  const close = () => {
    setRenewed(null);
    onClose();
  };

  const renewal = seal ? renewalState(seal) : null;
  const renewalReason =
    renewal && !renewal.canRenew
      ? t(`sealManage.renew.reason.${renewal.reason}`, { days: renewal.days ?? 0 })
      : null;

  const renewalColumns = [
    { title: t('sealManage.detail.renewNo'), dataIndex: 'renewNo', key: 'renewNo' },
    {
      title: t('sealManage.detail.oldSerial'),
      dataIndex: 'oldSerial',
      key: 'oldSerial',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('sealManage.detail.newSerial'),
      dataIndex: 'newSerial',
      key: 'newSerial',
      render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : '—'),
    },
    {
      title: t('sealManage.detail.renewStatus'),
      dataIndex: 'status',
      key: 'status',
      render: (v: string) => <StatusTag set="renewalStatus" value={v} />,
    },
    {
      title: t('sealManage.detail.renewTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      render: (v: string) => formatDateTime(v),
    },
  ];

  const body = () => {
    if (detail.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
    if (!seal) return <Result status="warning" title={t('sealManage.detail.notFound')} />;
    const actions = canManage ? actionsOf(seal) : [];
    return (
      <div data-testid="seal-detail" data-seal-code={seal.sealCode} data-status={seal.status}>
        <div style={{ display: 'flex', gap: 24, alignItems: 'center', marginBottom: 20 }}>
          <ManageSealImage seal={seal} size={180} />
          <div style={{ minWidth: 0 }}>
            <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="seal-detail-name">
              {seal.name}
            </Typography.Title>
            <Space wrap size={[8, 8]}>
              <StatusTag set="sealStatus" value={seal.status} />
              <Tag>{t(`sealCommon.kind.${seal.sealKind}`)}</Tag>
              <Tag color="blue">{t(`sealCommon.carrier.${seal.carrier}`)}</Tag>
            </Space>
            <div style={{ marginTop: 12, color: 'var(--os-text-2)' }}>
              {t('sealManage.detail.sealCode')}：<Typography.Text copyable>{seal.sealCode}</Typography.Text>
            </div>
            {canManage ? (
              <Space wrap style={{ marginTop: 16 }}>
                {canApplyChange(seal, seal.pendingChangeNo) ? (
                  <Button data-testid="seal-detail-change" onClick={() => onApplyChange(seal)}>
                    {t('sealManage.action.change')}
                  </Button>
                ) : null}
                {actions.map((a) => (
                  <Button
                    key={a}
                    danger={a === 'invalidate'}
                    data-testid={`seal-detail-${a}`}
                    onClick={() => onAction(a, [seal])}
                  >
                    {t(`sealManage.action.${a}`)}
                  </Button>
                ))}
              </Space>
            ) : null}
          </div>
        </div>

        {seal.pendingChangeNo ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="seal-detail-pending-change"
            title={t('sealManage.detail.pendingChange')}
            action={
              <Link
                to={`/sealService/changeRecodeDetail?changeNo=${encodeURIComponent(seal.pendingChangeNo)}`}
                data-testid="seal-detail-view-change"
              >
                {t('sealManage.detail.viewChange')}
              </Link>
            }
          />
        ) : null}

        <Descriptions
          title={t('sealManage.detail.basic')}
          bordered
          size="small"
          column={2}
          style={{ marginBottom: 24 }}
          items={[
            { key: 'name', label: t('sealManage.detail.name'), children: seal.name, span: 2 },
            { key: 'kind', label: t('sealManage.detail.kind'), children: seal.sealKindName },
            {
              key: 'drawType',
              label: t('sealManage.detail.drawType'),
              children: t(`sealCommon.drawType.${seal.sealType}`),
            },
            {
              key: 'carrier',
              label: t('sealManage.detail.carrier'),
              children: t(`sealCommon.carrier.${seal.carrier}`),
            },
            {
              key: 'size',
              label: t('sealManage.detail.size'),
              children: (
                <span data-testid="seal-detail-size">
                  {t('sealManage.detail.sizeValue', { width: seal.widthMm, height: seal.heightMm })}
                </span>
              ),
            },
            {
              key: 'validity',
              label: t('sealManage.detail.validity'),
              span: 2,
              children: (
                <span data-testid="seal-detail-validity" data-valid-to={seal.validTo ?? ''}>
                  <ManageValidity seal={seal} />
                </span>
              ),
            },
            seal.organizeName
              ? { key: 'org', label: t('sealManage.detail.organize'), children: seal.organizeName, span: 2 }
              : {
                  key: 'holder',
                  label: t('sealManage.detail.holder'),
                  children: seal.holderName ?? '—',
                  span: 2,
                },
            { key: 'applyNo', label: t('sealManage.detail.applyNo'), children: seal.applyNo },
            {
              key: 'createTime',
              label: t('sealManage.detail.createTime'),
              children: formatDateTime(seal.createTime),
            },
          ]}
        />

        <Descriptions
          title={t('sealManage.detail.certificate')}
          bordered
          size="small"
          column={1}
          style={{ marginBottom: 16 }}
          items={[
            {
              key: 'serial',
              label: t('sealManage.detail.certSerial'),
              children: seal.certSerial ? (
                <Typography.Text code data-testid="seal-detail-cert-serial">
                  {seal.certSerial}
                </Typography.Text>
              ) : (
                t('sealManage.noCertificate')
              ),
            },
            { key: 'holder', label: t('sealManage.detail.certHolder'), children: seal.certHolder ?? '—' },
            {
              key: 'holderId',
              label: t('sealManage.detail.certHolderId'),
              children: <span style={{ wordBreak: 'break-all' }}>{seal.certHolderId ?? '—'}</span>,
            },
            {
              key: 'status',
              label: t('sealManage.detail.certStatus'),
              children: seal.certStatus ? <StatusTag set="certStatus" value={seal.certStatus} /> : '—',
            },
          ]}
        />

        <div className="os-card" style={{ padding: 16, marginBottom: 24, background: '#f8fafc' }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 16, flexWrap: 'wrap' }}>
            <Button
              type="primary"
              disabled={!canManage || !renewal?.canRenew}
              loading={renewing}
              data-testid="seal-renew"
              onClick={() => setConfirmRenew(true)}
            >
              {t('sealManage.renew.button')}
            </Button>
            <Typography.Text type="secondary" data-testid="seal-renew-reason">
              {renewalReason ?? t('sealManage.renew.windowHint', { days: LIMITS.renewalWindowDays })}
            </Typography.Text>
          </div>
          {renewed ? (
            <Alert
              type="success"
              showIcon
              style={{ marginTop: 12 }}
              data-testid="seal-renew-result"
              data-valid-to={renewed.validTo ?? ''}
              title={t('sealManage.renew.result', {
                serial: renewed.certSerial ?? '—',
                from: formatDay(renewed.validFrom),
                to: formatDay(renewed.validTo),
              })}
            />
          ) : null}
        </div>

        <Typography.Title level={5}>{t('sealManage.detail.renewals')}</Typography.Title>
        <Table<Renewal>
          rowKey="renewNo"
          size="small"
          pagination={false}
          columns={renewalColumns}
          dataSource={seal.renewals}
          onRow={(r) =>
            ({ 'data-testid': 'seal-renewal-row', 'data-status': r.status }) as HTMLAttributes<HTMLElement>
          }
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sealManage.detail.noRenewals')} />
            ),
          }}
        />
      </div>
    );
  };

  return (
    <Drawer
      open={sealCode !== null}
      onClose={close}
      size={760}
      title={t('sealManage.detail.title')}
      destroyOnHidden
      data-testid="seal-detail-drawer"
    >
      {body()}
      <WarningDialog
        open={confirmRenew}
        title={t('sealManage.renew.confirmTitle')}
        content={t('sealManage.renew.confirm')}
        confirmLoading={renewing}
        onConfirm={() => void renew()}
        onCancel={() => setConfirmRenew(false)}
        testId="seal-renew-confirm"
      />
    </Drawer>
  );
}
