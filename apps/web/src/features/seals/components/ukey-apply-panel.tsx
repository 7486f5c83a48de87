import { contracts } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Timeline,
} from 'antd';
import type { ButtonProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AppDialog } from '../../../components/app-dialog';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import {
  applyForUkey,
  revokeUkeyApply,
  UKEYS_KEY,
  useUkeyApplies,
  useUkeyApplyDetail,
  useUkeyApplyInfo,
  type UkeyApply,
  type UkeyApplyStatus,
  type UkeyApplyType,
} from '../api/ukeys';
import { APPLY_STATUS_COLOUR, applyRowActions, needsTargetKey } from '../model/ukey-actions';
import { UkeySealSelect, useUkeySealNames } from './ukey-seal-select';

const PAGE_SIZE = 10;

export function ApplyStatusTag({ status }: { status: UkeyApplyStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={APPLY_STATUS_COLOUR[status]} data-testid="ukey-apply-status" data-status={status}>
      {t(`ukeyMng.applyStatus.${status}`)}
    </Tag>
  );
}

interface ApplyForm {
  ukeyType: UkeyApplyType;
  ukeyName: string;
  sealCodes: string[];
  targetUkeySn?: string;
}

/**
 * UKey applications of the organisation (POST /v1/pub/ukeyApply/list) with their import states, the
 * detail and history of one, revoking, and applying for a new key (info → form → apply).
 */
export function UkeyApplyPanel({ canReceive }: { canReceive: boolean }) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<UkeyApplyStatus | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const list = useUkeyApplies({ status, pageNum, pageSize: PAGE_SIZE }, canReceive);
  const [detailNo, setDetailNo] = useState<string | null>(null);
  const detail = useUkeyApplyDetail(detailNo);
  const [applying, setApplying] = useState(false);
  const info = useUkeyApplyInfo(canReceive && applying);
  const sealName = useUkeySealNames(canReceive);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<ApplyForm>();
  const type = Form.useWatch('ukeyType', form);
  const time = (v: string) => new Date(v).toLocaleString(i18n.language);
  const refresh = () => queryClient.invalidateQueries({ queryKey: UKEYS_KEY });

  const revoke = (a: UkeyApply) =>
    Modal.confirm({
      title: t('ukeyMng.revokeTitle'),
      content: t('ukeyMng.revokeText', { applyNo: a.applyNo }),
      okButtonProps: { danger: true, 'data-testid': 'ukey-apply-revoke-confirm' } as ButtonProps,
      okText: t('ukeyMng.revoke'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await revokeUkeyApply(a.applyNo);
          toastSuccess(t('ukeyMng.revoked'));
          await refresh();
        } catch (error) {
          handleApiError(error);
        }
      },
    });

  const submit = async (v: ApplyForm) => {
    setBusy(true);
    try {
      const created = await applyForUkey({
        ukeyType: v.ukeyType,
        ukeyName: v.ukeyName.trim(),
        sealCodes: v.ukeyType === 'ukey_online' ? [] : (v.sealCodes ?? []),
        ...(needsTargetKey(v.ukeyType) && v.targetUkeySn ? { targetUkeySn: v.targetUkeySn } : {}),
      });
      toastSuccess(t('ukeyMng.applyDialog.submitted'));
      setApplying(false);
      form.resetFields();
      await refresh();
      Modal.confirm({
        title: t('ukeyMng.applyDialog.submitted'),
        content: `${t('ukeyMng.col.applyNo')}：${created.applyNo}`,
        okText: t('ukeyMng.applyDialog.makeNow'),
        okButtonProps: { 'data-testid': 'ukey-apply-make-now' } as ButtonProps,
        cancelText: t('common.cancel'),
        onOk: () => void navigate(`/makeUKey?applyNo=${encodeURIComponent(created.applyNo)}`),
      });
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const columns: ColumnsType<UkeyApply> = [
    {
      title: t('ukeyMng.col.applyNo'),
      dataIndex: 'applyNo',
      key: 'applyNo',
      render: (v: string) => <span data-testid="ukey-apply-no">{v}</span>,
    },
    {
      title: t('ukeyMng.col.ukey'),
      key: 'ukey',
      render: (_, a) => (
        <div style={{ lineHeight: 1.7 }}>
          <div style={{ fontWeight: 500 }}>{a.ukeyName}</div>
          <div style={{ color: 'var(--os-text-2)', fontSize: 12 }}>
            {t(`ukeyMng.applyType.${a.ukeyType}`)}
          </div>
          {a.ukeySn || a.targetUkeySn ? (
            <div style={{ color: 'var(--os-text-2)', fontSize: 12 }}>
              {a.ukeySn ? t('ukeyMng.col.madeKey') : t('ukeyMng.col.targetKey')}：{a.ukeySn ?? a.targetUkeySn}
            </div>
          ) : null}
        </div>
      ),
    },
    {
      title: t('ukeyMng.col.seals'),
      key: 'seals',
      render: (_, a) =>
        a.sealCodes.length ? (
          <Space size={4} wrap>
            {a.sealCodes.map((c) => (
              <Tag key={c} color="red" variant="outlined" style={{ whiteSpace: 'normal', maxWidth: 200 }}>
                {sealName(c)}
              </Tag>
            ))}
          </Space>
        ) : (
          <span style={{ color: 'var(--os-text-2)' }}>{t('ukeyMng.noSeals')}</span>
        ),
    },
    {
      title: t('ukeyMng.col.status'),
      key: 'status',
      render: (_, a) => <ApplyStatusTag status={a.status} />,
    },
    {
      title: t('ukeyMng.col.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{time(v)}</span>,
    },
    {
      title: t('ukeyMng.col.actions'),
      key: 'actions',
      render: (_, a) => (
        <Space size={0} wrap>
          {applyRowActions(a.status, { receive: canReceive }).map((action) =>
            action === 'detail' ? (
              <Button
                key={action}
                type="link"
                size="small"
                data-testid="ukey-apply-detail"
                onClick={() => setDetailNo(a.applyNo)}
              >
                {t('ukeyMng.detail')}
              </Button>
            ) : action === 'make' ? (
              <Button
                key={action}
                type="link"
                size="small"
                data-testid="ukey-apply-make"
                onClick={() => void navigate(`/makeUKey?applyNo=${encodeURIComponent(a.applyNo)}`)}
              >
                {t('ukeyMng.make')}
              </Button>
            ) : (
              <Button
                key={action}
                type="link"
                size="small"
                danger
                data-testid="ukey-apply-revoke"
                onClick={() => revoke(a)}
              >
                {t('ukeyMng.revoke')}
              </Button>
            ),
          )}
        </Space>
      ),
    },
  ];

  const d = detail.data;
  const boundOffline = (info.data?.boundKeys ?? []).filter((k) => k.kind === 'offline');
  return (
    <div data-testid="ukey-apply-panel">
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          gap: 12,
          flexWrap: 'wrap',
          marginBottom: 12,
        }}
      >
        <Space wrap>
          {canReceive ? (
            <Button
              type="primary"
              data-testid="ukey-apply-open"
              onClick={() => {
                setApplying(true);
              }}
            >
              {t('ukeyMng.applyUkey')}
            </Button>
          ) : null}
        </Space>
        <Select<UkeyApplyStatus | 'all'>
          style={{ width: 160 }}
          value={status ?? 'all'}
          data-testid="ukey-apply-status-filter"
          onChange={(v) => {
            setStatus(v === 'all' ? undefined : v);
            setPageNum(1);
          }}
          options={[
            { value: 'all', label: t('ukeyMng.allStatus') },
            ...contracts.UKEY_APPLY_STATUS.map((s) => ({ value: s, label: t(`ukeyMng.applyStatus.${s}`) })),
          ]}
        />
      </div>
      <Table<UkeyApply>
        rowKey="applyNo"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        data-testid="ukey-apply-table"
        onRow={(a) =>
          ({
            'data-testid': 'ukey-apply-row',
            'data-id': a.applyNo,
            'data-status': a.status,
          }) as HTMLAttributes<HTMLElement>
        }
        locale={{ emptyText: t('ukeyMng.emptyApplies') }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
      />

      <Drawer
        open={detailNo !== null}
        width={560}
        title={t('ukeyMng.applyDetail.title')}
        onClose={() => setDetailNo(null)}
        destroyOnHidden
      >
        {detail.isPending ? (
          <Spin />
        ) : d ? (
          <div data-testid="ukey-apply-detail-body">
            <Descriptions
              size="small"
              column={1}
              bordered
              items={[
                { key: 'no', label: t('ukeyMng.col.applyNo'), children: d.applyNo },
                {
                  key: 'type',
                  label: t('ukeyMng.col.applyType'),
                  children: t(`ukeyMng.applyType.${d.ukeyType}`),
                },
                { key: 'name', label: t('ukeyMng.col.name'), children: d.ukeyName },
                {
                  key: 'status',
                  label: t('ukeyMng.col.status'),
                  children: <ApplyStatusTag status={d.status} />,
                },
                {
                  key: 'seals',
                  label: t('ukeyMng.col.seals'),
                  children: d.sealCodes.map(sealName).join('、') || '—',
                },
                ...(d.targetUkeySn
                  ? [{ key: 'target', label: t('ukeyMng.col.targetKey'), children: d.targetUkeySn }]
                  : []),
                { key: 'sn', label: t('ukeyMng.col.madeKey'), children: d.ukeySn ?? '—' },
                { key: 'cert', label: t('ukeyMng.col.certSerial'), children: d.certSerial ?? '—' },
                ...(d.failureReason
                  ? [
                      {
                        key: 'fail',
                        label: t('ukeyMng.applyDetail.failureReason'),
                        children: d.failureReason,
                      },
                    ]
                  : []),
                { key: 'created', label: t('ukeyMng.col.createTime'), children: time(d.createTime) },
                { key: 'updated', label: t('ukeyMng.col.updateTime'), children: time(d.updateTime) },
              ]}
            />
            <h4 style={{ margin: '20px 0 12px' }}>{t('ukeyMng.applyDetail.events')}</h4>
            <Timeline
              data-testid="ukey-apply-events"
              items={d.events.map((e) => ({
                color: e.toStatus === 'failure' ? 'red' : e.toStatus === 'success' ? 'green' : 'blue',
                children: (
                  <div data-testid="ukey-apply-event" data-opt={e.opt}>
                    <div>
                      <strong>{t(`ukeyMng.applyDetail.opt.${e.opt}`)}</strong>{' '}
                      <ApplyStatusTag status={e.toStatus} />
                    </div>
                    <div style={{ color: 'var(--os-text-2)', fontSize: 13 }}>{time(e.time)}</div>
                    {e.reason ? <div>{t('ukeyMng.applyDetail.reason', { reason: e.reason })}</div> : null}
                  </div>
                ),
              }))}
            />
          </div>
        ) : null}
      </Drawer>

      <AppDialog
        open={applying}
        width={600}
        title={t('ukeyMng.applyDialog.title')}
        okText={t('ukeyMng.applyDialog.submit')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'ukey-apply-submit' }}
        onOk={() => form.submit()}
        onCancel={() => setApplying(false)}
      >
        {info.isPending ? (
          <Spin />
        ) : info.data ? (
          <Form
            form={form}
            layout="vertical"
            initialValues={{ ukeyType: 'ukey_offline', sealCodes: [] }}
            onFinish={(v) => void submit(v)}
            data-testid="ukey-apply-form"
          >
            <Form.Item label={t('ukeyMng.applyDialog.holder')}>
              <span data-testid="ukey-apply-holder">
                {info.data.organizeName}（{info.data.uscc}）
              </span>
            </Form.Item>
            <Form.Item name="ukeyType" label={t('ukeyMng.applyDialog.type')}>
              <Radio.Group data-testid="ukey-apply-type">
                {info.data.ukeyTypes.map((k) => (
                  <Radio key={k.ukeyType} value={k.ukeyType} data-testid={`ukey-apply-type-${k.ukeyType}`}>
                    {t(`ukeyMng.applyType.${k.ukeyType}`)}
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
            {type && needsTargetKey(type) ? (
              <Form.Item
                name="targetUkeySn"
                label={t('ukeyMng.applyDialog.target')}
                rules={[{ required: true, message: t('ukeyMng.applyDialog.targetPlaceholder') }]}
              >
                <Select
                  placeholder={t('ukeyMng.applyDialog.targetPlaceholder')}
                  notFoundContent={t('ukeyMng.applyDialog.noTarget')}
                  options={boundOffline.map((k) => ({
                    value: k.ukeySn,
                    label: `${k.ukeyName}（${k.ukeySn}）`,
                  }))}
                  data-testid="ukey-apply-target"
                />
              </Form.Item>
            ) : null}
            <Form.Item
              name="ukeyName"
              label={t('ukeyMng.applyDialog.name')}
              required
              rules={[checkRule(contracts.checkUkeyName, language)]}
            >
              <Input
                maxLength={info.data.nameMax}
                placeholder={t('ukeyMng.bindDialog.namePlaceholder')}
                data-testid="ukey-apply-name"
              />
            </Form.Item>
            {type !== 'ukey_online' ? (
              <Form.Item
                name="sealCodes"
                label={t('ukeyMng.applyDialog.seals')}
                extra={
                  type && needsTargetKey(type)
                    ? t('ukeyMng.applyDialog.sealsOptionalHint')
                    : t('ukeyMng.bindDialog.sealsHint', { max: info.data.maxSealsPerKey })
                }
                rules={
                  type && needsTargetKey(type)
                    ? []
                    : [{ required: true, type: 'array', min: 1, message: t('ukeyMng.sealsRequired') }]
                }
              >
                <UkeySealSelect testId="ukey-apply-seals" />
              </Form.Item>
            ) : null}
          </Form>
        ) : null}
      </AppDialog>
    </div>
  );
}
