import { Descriptions, Image, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../model/format';
import { changeSideText, sealRowOwner, sealRowSummary, type SealQueue } from '../model/seal-queue';

type Row = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

/** The organisation column of both seal queues: its name, or a "personal" tag for a person's own seal. */
function ownerColumn(t: TFunction): ColumnsType<Row>[number] {
  return {
    title: t('manage.orgName'),
    key: 'organisation',
    render: (_, r) => {
      const owner = sealRowOwner(r);
      return (
        <span data-testid="manage-org-name" data-personal={owner.personal ? 'true' : 'false'}>
          {owner.personal ? <Tag>{t('identity.person')}</Tag> : owner.name || '-'}
        </span>
      );
    },
  };
}

/**
 * Columns of the seal queues (server rows: the work order, or the seal change, of spec section 3):
 * number, organisation (or a personal seal), kind or change type, seal name, carrier, applicant and
 * submission time.
 */
export function sealColumns(queue: SealQueue, t: TFunction, lang: string): ColumnsType<Row> {
  if (queue === 'sealApply')
    return [
      {
        title: t('manage.applyNo'),
        dataIndex: 'applyNo',
        render: (v) => <Typography.Text copyable={{ text: str(v) }}>{str(v)}</Typography.Text>,
      },
      ownerColumn(t),
      {
        title: t('manage.sealKind'),
        key: 'kind',
        render: (_, r) => t(`manage.sealKind_${str(r.sealKind)}`, { defaultValue: str(r.sealKindName) }),
      },
      {
        title: t('manage.sealName'),
        dataIndex: 'sealName',
        render: (v) => <span data-testid="manage-seal-name">{str(v)}</span>,
      },
      {
        title: t('manage.carrier'),
        dataIndex: 'carrier',
        render: (v) => t(`manage.carrier_${str(v)}`, { defaultValue: str(v) }),
      },
      {
        title: t('manage.applicant'),
        key: 'applicant',
        render: (_, r) => (
          <>
            <div>{str(r.applicantName) || '-'}</div>
            <Typography.Text type="secondary">{str(r.applicantMobile)}</Typography.Text>
          </>
        ),
      },
      {
        title: t('manage.submittedAt'),
        key: 'submitted',
        render: (_, r) => formatTime(str(r.submitTime) || str(r.createTime), lang),
      },
    ];
  return [
    {
      title: t('manage.changeNo'),
      dataIndex: 'changeNo',
      render: (v) => <Typography.Text copyable={{ text: str(v) }}>{str(v)}</Typography.Text>,
    },
    ownerColumn(t),
    {
      title: t('manage.changeType'),
      dataIndex: 'changeType',
      render: (v) => t(`manage.changeType_${str(v)}`, { defaultValue: str(v) }),
    },
    {
      title: t('manage.sealName'),
      key: 'name',
      render: (_, r) => {
        const { before, after } = sealRowSummary(r);
        return (
          <>
            <div data-testid="manage-seal-name">{before === after ? after : `${before} → ${after}`}</div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="manage-seal-code">
              {t('manage.sealCode')}: {str(r.sealCode) || '-'}
            </Typography.Text>
          </>
        );
      },
    },
    { title: t('manage.applicant'), dataIndex: 'applicantName', render: (v) => str(v) || '-' },
    {
      title: t('manage.submittedAt'),
      dataIndex: 'createTime',
      render: (v) => formatTime(str(v), lang),
    },
  ];
}

/** The expanded row: what the seal will look like and the facts behind the decision. */
export function SealRowDetail({ queue, row }: { queue: SealQueue; row: Row }) {
  const { t, i18n } = useTranslation();
  const drawType = (v: unknown) => t(`manage.drawType_${str(v)}`, { defaultValue: str(v) });
  if (queue === 'sealApply')
    return (
      <Descriptions
        size="small"
        column={3}
        data-testid="manage-seal-detail"
        items={[
          { key: 'type', label: t('manage.drawType'), children: drawType(row.sealType) },
          {
            key: 'size',
            label: t('manage.sealSize'),
            children: `${str(row.widthMm)} × ${str(row.heightMm)} mm`,
          },
          { key: 'title', label: t('manage.sealTitle'), children: str(row.title) || '-' },
          ...(row.title0
            ? [{ key: 'title0', label: t('manage.sealTitle0'), children: str(row.title0) }]
            : []),
          {
            key: 'created',
            label: t('manage.createdAt'),
            children: formatTime(str(row.createTime), i18n.language),
          },
          // Claiming starts only after approval: before that the claim status says nothing.
          ...(str(row.status) === 'pendingReview'
            ? []
            : [
                {
                  key: 'receive',
                  label: t('manage.receiveStatus'),
                  children: t(`manage.receive_${str(row.receiveStatus)}`, {
                    defaultValue: str(row.receiveStatus),
                  }),
                },
              ]),
        ]}
      />
    );
  const preview = str(row.previewUrl);
  const { beforeSide, afterSide } = sealRowSummary(row);
  return (
    <Space align="start" size={24} data-testid="manage-seal-detail">
      {preview ? (
        <Image
          src={preview}
          width={120}
          alt={t('manage.sealPreview')}
          data-testid="manage-seal-preview"
          style={{ background: '#fafafa', border: '1px solid #f0f0f0', borderRadius: 4, padding: 4 }}
        />
      ) : null}
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'before', label: t('manage.changeBefore'), children: changeSideText(beforeSide, drawType) },
          { key: 'after', label: t('manage.changeAfter'), children: changeSideText(afterSide, drawType) },
          { key: 'reason', label: t('manage.changeReason'), children: str(row.reason) || '-' },
        ]}
      />
    </Space>
  );
}
