import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Select, Space, Table, Tabs, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import type { PageProps } from '../../../lib/page';
import {
  useApplyViewer,
  useWorkOrders,
  type SealCarrier,
  type SealKind,
  type WorkOrder,
  type WorkOrderStatus,
} from '../api/apply';
import { useSealKinds } from '../api/seals';
import { ApplyActions } from '../components/apply-actions';
import { ApplyClaimLinkDialog } from '../components/apply-claim-link-dialog';
import { StatusTag } from '../components/status-tag';
import {
  awaitsClaim,
  carrierOfPath,
  claimsItself,
  detailPath,
  LIST_PATH,
  receiveLabel,
  WORK_ORDER_FILTER,
} from '../model/apply-records';

const PAGE_SIZE = 10;

/**
 * /sealService/applyRecordList (and cloudSealList, ukeySealList, which open their tab): the seal
 * applications of the current space, cloud and UKey, with their status, claim state and what each allows.
 */
export function ApplyRecordListPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const viewer = useApplyViewer();
  const kinds = useSealKinds();
  const [carrier, setCarrier] = useState<SealCarrier>(() => carrierOfPath(route.path));
  const [status, setStatus] = useState<WorkOrderStatus | undefined>();
  const [sealKind, setSealKind] = useState<SealKind | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [linkFor, setLinkFor] = useState<string[] | null>(null);

  // The cloud and UKey routes open their own tab.
  useEffect(() => {
    setCarrier(carrierOfPath(route.path));
    setPageNum(1);
  }, [route.path]);
  useEffect(() => setSelected([]), [carrier, status, sealKind, pageNum]);

  const list = useWorkOrders({ carrier, status, sealKind, pageNum, pageSize: PAGE_SIZE });

  if (!viewer) return <PageLoading />;
  const sendsLinks = !claimsItself(viewer);
  const time = (v: string | null) =>
    v
      ? new Date(v).toLocaleString(i18n.language, {
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
        })
      : '—';

  const columns: ColumnsType<WorkOrder> = [
    {
      title: t('sealCommon.sealName'),
      key: 'seal',
      render: (_: unknown, w) => (
        <div style={{ minWidth: 200, maxWidth: 280 }}>
          <Typography.Text strong ellipsis={{ tooltip: w.sealName }} data-testid="apply-row-name">
            {w.sealName}
          </Typography.Text>
          <div style={{ fontSize: 12 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('sealApply.records.applyNo')}：
            </Typography.Text>
            <Link to={detailPath(w)} data-testid="apply-row-no">
              {w.applyNo}
            </Link>
          </div>
        </div>
      ),
    },
    {
      title: t('sealCommon.sealKind'),
      key: 'kind',
      width: 120,
      render: (_: unknown, w) => t(`sealCommon.kind.${w.sealKind}`),
    },
    {
      title: t('sealCommon.status'),
      key: 'status',
      width: 110,
      render: (_: unknown, w) => {
        const r = receiveLabel(w);
        return (
          <Space orientation="vertical" size={2}>
            <StatusTag set="workOrderStatus" value={w.status} />
            {r ? (
              <Typography.Text
                type={r === 'failed' ? 'danger' : 'secondary'}
                style={{ fontSize: 12 }}
                data-testid="apply-row-receive"
                data-receive={r}
              >
                {t(`sealApply.receive.${r}`)}
              </Typography.Text>
            ) : null}
          </Space>
        );
      },
    },
    {
      title: t('sealCommon.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      width: 150,
      render: (v: string) => <span title={new Date(v).toLocaleString(i18n.language)}>{time(v)}</span>,
    },
    {
      title: t('sealCommon.operations'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, w) => <ApplyActions order={w} viewer={viewer} />,
    },
  ];

  const statusOptions = [
    { value: 'all', label: t('sealApply.records.statusAll') },
    ...WORK_ORDER_FILTER.map((s) => ({ value: s, label: t(`sealCommon.workOrderStatus.${s}`) })),
  ];
  const kindOptions = [
    { value: 'all', label: t('sealApply.records.kindAll') },
    ...(kinds.data?.list ?? []).map((k) => ({ value: k.kind, label: t(`sealCommon.kind.${k.kind}`) })),
  ];

  return (
    <div className="os-page" data-testid="apply-record-list-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/sealService/mySealList" />
      <div className="os-card">
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
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="apply-new"
              onClick={() => void navigate('/sealService/applySeal')}
            >
              {t('sealApply.records.newApply')}
            </Button>
            {sendsLinks ? (
              <Button
                disabled={selected.length === 0}
                data-testid="apply-send-link-batch"
                onClick={() => setLinkFor(selected)}
              >
                {t('sealApply.records.sendLinkBatch')}
              </Button>
            ) : null}
            {sendsLinks && selected.length > 0 ? (
              <Typography.Text type="secondary">
                {t('sealApply.records.selected', { count: selected.length })}
              </Typography.Text>
            ) : null}
          </Space>
          <Space wrap>
            <Select<WorkOrderStatus | 'all'>
              style={{ width: 150 }}
              value={status ?? 'all'}
              data-testid="apply-status-filter"
              options={statusOptions}
              onChange={(v) => {
                setStatus(v === 'all' ? undefined : v);
                setPageNum(1);
              }}
            />
            <Select<SealKind | 'all'>
              style={{ width: 160 }}
              value={sealKind ?? 'all'}
              data-testid="apply-kind-filter"
              options={kindOptions}
              onChange={(v) => {
                setSealKind(v === 'all' ? undefined : v);
                setPageNum(1);
              }}
            />
            <Button icon={<ReloadOutlined />} data-testid="apply-refresh" onClick={() => void list.refetch()}>
              {t('sealCommon.refresh')}
            </Button>
          </Space>
        </div>
        <Tabs
          activeKey={carrier}
          onChange={(k) => {
            const next = k as SealCarrier;
            setCarrier(next);
            setPageNum(1);
            void navigate(LIST_PATH[next], { replace: true });
          }}
          items={[
            {
              key: 'cloud',
              label: <span data-testid="apply-tab-cloud">{t('sealApply.records.tabCloud')}</span>,
            },
            {
              key: 'ukey',
              label: <span data-testid="apply-tab-ukey">{t('sealApply.records.tabUkey')}</span>,
            },
          ]}
        />
        <Table<WorkOrder>
          rowKey="applyNo"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching}
          data-testid="apply-table"
          scroll={{ x: 'max-content' }}
          rowSelection={
            sendsLinks
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(String)),
                  getCheckboxProps: (w) => ({ disabled: !awaitsClaim(w) }),
                }
              : undefined
          }
          onRow={(w) =>
            ({
              'data-testid': 'apply-row',
              'data-id': w.applyNo,
              'data-status': w.status,
              'data-kind': w.sealKind,
            }) as HTMLAttributes<HTMLElement>
          }
          locale={{ emptyText: t('sealApply.records.empty') }}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: list.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPageNum,
          }}
        />
      </div>
      <ApplyClaimLinkDialog applyNos={linkFor} onClose={() => setLinkFor(null)} />
    </div>
  );
}
