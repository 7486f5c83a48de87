import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Result, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { WarningDialog } from '../../../components/warning-dialog';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { cancelSealChange, useSealChange, type SealChange } from '../api/changes';
import { useSealPoints } from '../api/manage';
import { SEALS_KEY, useSeal } from '../api/seals';
import { ManageSealImage } from '../components/manage-seal-drawer';
import { StatusTag } from '../components/status-tag';
import { canCancelChange, changedFields, type ChangeField } from '../model/change-records';
import { formatDateTime } from '../model/manage-seals';

type Side = SealChange['before'];

/** One side of the change: its image and fields, the altered ones marked. */
function ChangeSideCard({
  label,
  side,
  image,
  changed,
  testId,
}: {
  label: string;
  side: Side;
  image: ReactNode;
  changed: ChangeField[];
  testId: string;
}) {
  const { t } = useTranslation();
  const mark = (field: ChangeField, value: ReactNode) =>
    changed.includes(field) ? (
      <Space size={6}>
        <span style={{ fontWeight: 600 }}>{value}</span>
        <Tag color="gold" style={{ marginInlineEnd: 0 }}>
          {t('sealChange.detail.changed')}
        </Tag>
      </Space>
    ) : (
      value
    );
  return (
    <div className="os-card" style={{ flex: '1 1 320px', padding: 20 }} data-testid={testId}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {label}
      </Typography.Title>
      <div style={{ display: 'flex', justifyContent: 'center', marginBottom: 16 }}>{image}</div>
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'name',
            label: t('sealChange.detail.name'),
            children: <span data-testid={`${testId}-name`}>{mark('name', side.name)}</span>,
          },
          {
            key: 'sealType',
            label: t('sealChange.detail.sealType'),
            children: (
              <span data-testid={`${testId}-seal-type`} data-value={side.sealType}>
                {mark('sealType', t(`sealCommon.drawType.${side.sealType}`))}
              </span>
            ),
          },
          {
            key: 'title',
            label: t('sealChange.detail.title'),
            children: mark('title', side.title ?? t('sealChange.detail.none')),
          },
          ...(side.title0 || changed.includes('title0')
            ? [
                {
                  key: 'title0',
                  label: t('sealChange.detail.title0'),
                  children: mark('title0', side.title0 ?? t('sealChange.detail.none')),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}

/** /sealService/changeRecodeDetail?changeNo=…: one change, before and after, its status and times. */
export function ChangeRecordDetailPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const changeNo = params.get('changeNo');
  const detail = useSealChange(changeNo);
  const change = detail.data;
  const seal = useSeal(change?.sealCode ?? null);
  const points = useSealPoints();
  const canManage = (points.data?.points ?? []).includes('seal.manage');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const title = t(route.titleKey, { ns: 'route' });
  const header = <BackHeader title={title} fallback="/sealService/changeRecode" />;

  if (!changeNo)
    return (
      <div className="os-page" data-testid="change-detail-page">
        {header}
        <div className="os-card">
          <Result status="warning" title={t('sealChange.detail.missing')} />
        </div>
      </div>
    );
  if (detail.isPending) return <PageLoading />;
  if (!change)
    return (
      <div className="os-page" data-testid="change-detail-page">
        {header}
        <div className="os-card">
          <Result
            status="warning"
            title={t('sealChange.detail.notFound')}
            extra={
              <Button onClick={() => void navigate('/sealService/changeRecode')}>
                {t('sealChange.detail.backToList')}
              </Button>
            }
          />
        </div>
      </div>
    );

  const changed = changedFields(change.before, change.after);
  // The change keeps the look it replaces. Records older than that fall back to the seal's current image
  // while it has not been replaced yet.
  const beforeImage =
    change.beforeImageUrl ?? (seal.data && change.status !== 'changed' ? seal.data.imageUrl : null);

  const cancel = async () => {
    setBusy(true);
    try {
      await cancelSealChange(change.changeNo);
      toastSuccess(t('sealChange.cancel.success'));
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: SEALS_KEY });
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="os-page" data-testid="change-detail-page" data-status={change.status}>
      <BackHeader
        title={title}
        fallback="/sealService/changeRecode"
        extra={
          <Space>
            <Button
              data-testid="change-detail-to-seal"
              onClick={() =>
                void navigate(`/sealService/mySealList?sealCode=${encodeURIComponent(change.sealCode)}`)
              }
            >
              {t('sealChange.detail.toSeal')}
            </Button>
            {canManage && canCancelChange(change) ? (
              <Button danger data-testid="change-detail-cancel" onClick={() => setConfirming(true)}>
                {t('sealChange.list.cancel')}
              </Button>
            ) : null}
          </Space>
        }
      />
      {change.status === 'returned' && change.rejectReason ? (
        <Alert
          type="error"
          showIcon
          data-testid="change-reject-reason"
          title={`${t('sealChange.detail.rejectReason')}：${change.rejectReason}`}
        />
      ) : null}
      <div className="os-card">
        <Descriptions
          title={t('sealChange.detail.info')}
          bordered
          size="small"
          column={2}
          items={[
            {
              key: 'changeNo',
              label: t('sealChange.detail.changeNo'),
              children: <Typography.Text copyable>{change.changeNo}</Typography.Text>,
            },
            {
              key: 'status',
              label: t('sealChange.detail.status'),
              children: <StatusTag set="changeStatus" value={change.status} />,
            },
            { key: 'sealCode', label: t('sealChange.detail.sealCode'), children: change.sealCode },
            {
              key: 'type',
              label: t('sealChange.detail.changeType'),
              children: t(`sealChange.type.${change.changeType}`),
            },
            {
              key: 'applicant',
              label: t('sealChange.detail.applicant'),
              children: change.applicantName ?? t('sealChange.detail.none'),
            },
            {
              key: 'createTime',
              label: t('sealChange.detail.createTime'),
              children: formatDateTime(change.createTime),
            },
            {
              key: 'reviewTime',
              label: t('sealChange.detail.reviewTime'),
              children: formatDateTime(change.reviewTime),
            },
            {
              key: 'reason',
              label: t('sealChange.detail.reason'),
              children: change.reason || t('sealChange.detail.none'),
            },
            ...(change.rejectReason
              ? [
                  {
                    key: 'rejectReason',
                    label: t('sealChange.detail.rejectReason'),
                    children: change.rejectReason,
                    span: 2,
                  },
                ]
              : []),
          ]}
        />
      </div>
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
        <ChangeSideCard
          label={t('sealChange.detail.before')}
          side={change.before}
          changed={changed}
          testId="change-before"
          image={
            <div data-testid="change-before-image" data-kept={change.beforeImageUrl ? 'true' : 'false'}>
              <ManageSealImage
                seal={{ imageUrl: beforeImage, name: change.before.name }}
                size={180}
                placeholder={change.status === 'changed' ? t('sealChange.detail.beforeNotKept') : undefined}
              />
            </div>
          }
        />
        <ChangeSideCard
          label={t('sealChange.detail.after')}
          side={change.after}
          changed={changed}
          testId="change-after"
          image={
            <div data-testid="change-after-image">
              <ManageSealImage seal={{ imageUrl: change.previewUrl, name: change.after.name }} size={180} />
            </div>
          }
        />
      </div>
      <WarningDialog
        open={confirming}
        danger
        title={t('sealChange.cancel.title')}
        content={t('sealChange.cancel.content')}
        confirmLoading={busy}
        onConfirm={() => void cancel()}
        onCancel={() => setConfirming(false)}
        testId="change-cancel-confirm"
      />
    </div>
  );
}
