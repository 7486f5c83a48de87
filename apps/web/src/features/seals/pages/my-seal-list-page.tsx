import { contracts, IDENTITY } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { WarningDialog } from '../../../components/warning-dialog';
import { FirstUseTour } from '../../../components/first-use-tour';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { disableSeals, enableSeals, invalidateSeals, usePersonSealCheck, useSealPoints } from '../api/manage';
import { SEALS_KEY, useMySeals, type Seal, type SealDetail } from '../api/seals';
import { ChangeApplyDialog } from '../components/change-apply-dialog';
import { ManageSealDrawer, ManageSealImage, ManageValidity } from '../components/manage-seal-drawer';
import { StatusTag } from '../components/status-tag';
import {
  actionsOf,
  batchActionsFor,
  filtersFromQuery,
  filtersToQuery,
  MANAGE_ACTIONS,
  PAGE_SIZES,
  withFilter,
  type ManageAction,
  type SealListFilters,
} from '../model/manage-seals';

type Pending = { action: ManageAction; seals: Seal[] } | null;

/** Runs one management call for a set of seals (the server does all or none). */
function callFor(action: ManageAction, codes: string[]) {
  switch (action) {
    case 'enable':
      return enableSeals(codes);
    case 'disable':
      return disableSeals(codes, false);
    case 'freeze':
      return disableSeals(codes, true);
    case 'invalidate':
      return invalidateSeals(codes);
    default: {
      const never: never = action;
      return never;
    }
  }
}

/**
 * /sealService/mySealList: the seals of the current space with filters kept in the address, single and
 * batch enable, disable, freeze and cancel (each saying what happens to the certificate), and a detail
 * drawer (`?sealCode=`) with the certificate, renewal and change application.
 */
export function MySealListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromQuery(params), [params]);
  const openCode = params.get('sealCode');
  const points = useSealPoints();
  const canManage = (points.data?.points ?? []).includes('seal.manage');
  const isPerson = points.data?.identityType === IDENTITY.person;
  const personCheck = usePersonSealCheck(isPerson);
  const list = useMySeals(filters);
  const [keyword, setKeyword] = useState(filters.keyword ?? '');
  const [selected, setSelected] = useState<Seal[]>([]);
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [changing, setChanging] = useState<SealDetail | null>(null);

  const seals = list.data?.list ?? [];
  const selectedCodes = selected.map((s) => s.sealCode);
  // The selection follows the rows as they are now (statuses change after an action).
  const selectedNow = seals.filter((s) => selectedCodes.includes(s.sealCode));
  const batchAllowed = batchActionsFor(selectedNow);
  const needsChange = (personCheck.data?.list ?? []).filter((s) => s.needsChange);
  const isFiltered = Boolean(filters.status ?? filters.sealKind ?? filters.carrier ?? filters.keyword);

  const setFilters = (next: SealListFilters) => {
    setSelected([]);
    setParams((p) => filtersToQuery(next, p), { replace: true });
  };
  const openDetail = (sealCode: string | null) =>
    setParams((p) => {
      const copy = new URLSearchParams(p);
      if (sealCode) copy.set('sealCode', sealCode);
      else copy.delete('sealCode');
      return copy;
    });

  const runPending = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const result = await callFor(
        pending.action,
        pending.seals.map((s) => s.sealCode),
      );
      toastSuccess(t(`sealManage.done.${pending.action}`, { count: result.list.length }));
      setPending(null);
      setSelected([]);
      await queryClient.invalidateQueries({ queryKey: SEALS_KEY });
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const columns: ColumnsType<Seal> = [
    {
      title: t('sealManage.columns.seal'),
      key: 'seal',
      width: 280,
      render: (_, s) => (
        <div style={{ display: 'flex', gap: 12, alignItems: 'center', minWidth: 220 }}>
          <ManageSealImage seal={s} size={64} />
          <div style={{ minWidth: 0 }}>
            <Typography.Link
              strong
              data-testid="seal-name"
              onClick={() => openDetail(s.sealCode)}
              style={{ display: 'block' }}
            >
              {s.name}
            </Typography.Link>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="seal-code">
              {s.sealCode}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: t('sealManage.columns.kindCarrier'),
      key: 'kind',
      width: 150,
      render: (_, s) => (
        <Space orientation="vertical" size={4}>
          <span data-testid="seal-kind" data-kind={s.sealKind} style={{ whiteSpace: 'nowrap' }}>
            {t(`sealCommon.kind.${s.sealKind}`)}
          </span>
          <Tag color={s.carrier === 'ukey' ? 'purple' : 'blue'} style={{ marginInlineEnd: 0 }}>
            {t(`sealCommon.carrier.${s.carrier}`)}
          </Tag>
        </Space>
      ),
    },
    {
      title: t('sealManage.columns.status'),
      key: 'status',
      width: 110,
      render: (_, s) => <StatusTag set="sealStatus" value={s.status} />,
    },
    {
      title: t('sealManage.columns.validity'),
      key: 'validity',
      width: 200,
      render: (_, s) => <ManageValidity seal={s} />,
    },
    {
      title: t('sealManage.columns.certificate'),
      key: 'certificate',
      width: 120,
      render: (_, s) =>
        s.certSerial ? (
          <Space orientation="vertical" size={4}>
            <Tooltip title={s.certSerial}>
              <Typography.Text
                code
                style={{ fontSize: 12, whiteSpace: 'nowrap' }}
                data-testid="seal-cert-serial"
              >
                {s.certSerial.length > 8 ? `${s.certSerial.slice(0, 8)}…` : s.certSerial}
              </Typography.Text>
            </Tooltip>
            {s.certStatus ? <StatusTag set="certStatus" value={s.certStatus} /> : null}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('sealManage.noCertificate')}</Typography.Text>
        ),
    },
    {
      title: t('sealManage.columns.actions'),
      key: 'actions',
      width: 116,
      // Always in view: when the columns are wider than the page, the table scrolls under the actions.
      fixed: 'right',
      render: (_, s) => (
        <Space size={[0, 0]} wrap style={{ width: 104 }}>
          <Button
            type="link"
            size="small"
            data-testid="seal-detail-open"
            onClick={() => openDetail(s.sealCode)}
          >
            {t('sealManage.action.detail')}
          </Button>
          {canManage
            ? actionsOf(s).map((a) => (
                <Button
                  key={a}
                  type="link"
                  size="small"
                  danger={a === 'invalidate'}
                  data-testid={`seal-${a}`}
                  onClick={() => setPending({ action: a, seals: [s] })}
                >
                  {t(`sealManage.action.${a}`)}
                </Button>
              ))
            : null}
        </Space>
      ),
    },
  ];

  const statusOptions = contracts.SEAL_STATUSES.map((v) => ({
    value: v,
    label: t(`sealCommon.sealStatus.${v}`),
  }));
  const kindOptions = contracts.SEAL_KINDS.map((v) => ({ value: v, label: t(`sealCommon.kind.${v}`) }));
  const carrierOptions = contracts.SEAL_CARRIERS.map((v) => ({
    value: v,
    label: t(`sealCommon.carrier.${v}`),
  }));
  const all = { value: '', label: t('sealManage.filters.all') };

  return (
    <div className="os-page" data-testid="my-seal-list-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/" />
      <div className="os-card">
        {needsChange.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="person-seal-check"
            title={t('sealManage.personCheck.title')}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {needsChange.map((s) => (
                  <li key={s.sealCode}>
                    <Typography.Link onClick={() => openDetail(s.sealCode)}>
                      {t('sealManage.personCheck.item', { sealName: s.sealName, personName: s.personName })}
                    </Typography.Link>
                  </li>
                ))}
              </ul>
            }
          />
        ) : null}
        {points.data && !canManage ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="seal-no-manage"
            title={t('sealManage.noManagePermission')}
          />
        ) : null}

        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginBottom: 16 }}>
          <Select<string>
            style={{ width: 150 }}
            value={filters.status ?? ''}
            data-testid="seal-filter-status"
            prefix={<span style={{ color: 'var(--os-text-2)' }}>{t('sealManage.filters.status')}</span>}
            options={[all, ...statusOptions]}
            onChange={(v) => setFilters(withFilter(filters, { status: (v || undefined) as Seal['status'] }))}
          />
          <Select<string>
            style={{ width: 190 }}
            value={filters.sealKind ?? ''}
            data-testid="seal-filter-kind"
            prefix={<span style={{ color: 'var(--os-text-2)' }}>{t('sealManage.filters.kind')}</span>}
            options={[all, ...kindOptions]}
            onChange={(v) =>
              setFilters(withFilter(filters, { sealKind: (v || undefined) as Seal['sealKind'] }))
            }
          />
          <Select<string>
            style={{ width: 170 }}
            value={filters.carrier ?? ''}
            data-testid="seal-filter-carrier"
            prefix={<span style={{ color: 'var(--os-text-2)' }}>{t('sealManage.filters.carrier')}</span>}
            options={[all, ...carrierOptions]}
            onChange={(v) =>
              setFilters(withFilter(filters, { carrier: (v || undefined) as Seal['carrier'] }))
            }
          />
          <Input.Search
            allowClear
            style={{ width: 240 }}
            value={keyword}
            maxLength={50}
            placeholder={t('sealManage.filters.keyword')}
            data-testid="seal-filter-keyword"
            onChange={(e) => setKeyword(e.target.value)}
            onSearch={(v) => setFilters(withFilter(filters, { keyword: v.trim() || undefined }))}
          />
          <Button
            data-testid="seal-filter-reset"
            disabled={!isFiltered}
            onClick={() => {
              setKeyword('');
              setFilters({ pageNum: 1, pageSize: filters.pageSize });
            }}
          >
            {t('sealManage.filters.reset')}
          </Button>
        </div>

        {canManage ? (
          <div
            data-testid="seal-batch-bar"
            data-count={selectedNow.length}
            style={{
              display: 'flex',
              alignItems: 'center',
              gap: 12,
              flexWrap: 'wrap',
              padding: '8px 12px',
              marginBottom: 12,
              background: selectedNow.length ? '#eef4ff' : '#f8fafc',
              border: '1px solid var(--os-border)',
              borderRadius: 6,
            }}
          >
            <Typography.Text type={selectedNow.length ? undefined : 'secondary'}>
              {selectedNow.length
                ? t('sealManage.selected', { count: selectedNow.length })
                : t('sealManage.batchHint')}
            </Typography.Text>
            <Space wrap size={8} style={{ marginLeft: 'auto' }}>
              {MANAGE_ACTIONS.map((a) => {
                const allowed = batchAllowed.includes(a);
                const button = (
                  <Button
                    key={a}
                    size="small"
                    danger={a === 'invalidate'}
                    disabled={!allowed}
                    data-testid={`seal-batch-${a}`}
                    onClick={() => setPending({ action: a, seals: selectedNow })}
                  >
                    {t(`sealManage.action.${a}`)}
                  </Button>
                );
                return selectedNow.length && !allowed ? (
                  <Tooltip key={a} title={t('sealManage.notAllowedForSelection')}>
                    <span>{button}</span>
                  </Tooltip>
                ) : (
                  button
                );
              })}
              {selectedNow.length ? (
                <Button
                  size="small"
                  type="text"
                  onClick={() => setSelected([])}
                  data-testid="seal-batch-clear"
                >
                  {t('sealManage.clearSelection')}
                </Button>
              ) : null}
            </Space>
          </div>
        ) : null}

        {list.isError && !list.data ? (
          <Alert
            type="error"
            showIcon
            title={t('sealManage.loadFailed')}
            description={list.error.message}
            action={<Button onClick={() => void list.refetch()}>{t('sealManage.retry')}</Button>}
          />
        ) : (
          <Table<Seal>
            rowKey="sealCode"
            columns={columns}
            dataSource={seals}
            loading={list.isFetching}
            data-testid="seal-table"
            scroll={{ x: 1030 }}
            rowSelection={
              canManage
                ? {
                    selectedRowKeys: selectedCodes,
                    onChange: (_, rows) => setSelected(rows),
                    getCheckboxProps: (s) => ({ disabled: actionsOf(s).length === 0 }),
                  }
                : undefined
            }
            onRow={(s) =>
              ({
                'data-testid': 'seal-row',
                'data-id': s.sealCode,
                'data-status': s.status,
                'data-cert-status': s.certStatus ?? '',
              }) as HTMLAttributes<HTMLElement>
            }
            locale={{
              emptyText: (
                <Empty
                  description={isFiltered ? t('sealManage.emptyFiltered') : t('sealManage.empty')}
                  data-testid="seal-empty"
                >
                  {!isFiltered ? (
                    <Button type="primary" onClick={() => void navigate('/sealService/applySeal')}>
                      {t('sealManage.applyNow')}
                    </Button>
                  ) : null}
                </Empty>
              ),
            }}
            pagination={{
              current: filters.pageNum,
              pageSize: filters.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES.map(String),
              showTotal: (total) => t('sealManage.total', { count: total }),
              onChange: (pageNum, pageSize) =>
                setFilters(
                  pageSize !== filters.pageSize
                    ? { ...filters, pageNum: 1, pageSize }
                    : { ...filters, pageNum },
                ),
            }}
          />
        )}
      </div>

      <ManageSealDrawer
        sealCode={openCode}
        canManage={canManage}
        onClose={() => openDetail(null)}
        onAction={(action, target) => setPending({ action, seals: target })}
        onApplyChange={(seal) => setChanging(seal)}
      />
      <ChangeApplyDialog
        seal={changing}
        onClose={() => setChanging(null)}
        onSubmitted={(change) => {
          setChanging(null);
          void navigate(`/sealService/changeRecodeDetail?changeNo=${encodeURIComponent(change.changeNo)}`);
        }}
      />
      <WarningDialog
        open={pending !== null}
        danger={
          pending?.action === 'invalidate' || pending?.action === 'disable' || pending?.action === 'freeze'
        }
        title={pending ? t(`sealManage.confirm.${pending.action}Title`) : ''}
        content={
          pending ? (
            <div data-testid="seal-confirm-text" data-action={pending.action}>
              <p style={{ margin: '0 0 8px' }}>{t(`sealManage.confirm.${pending.action}`)}</p>
              <Typography.Text type="secondary">
                {t('sealManage.confirm.seals', { names: pending.seals.map((s) => s.name).join('、') })}
              </Typography.Text>
            </div>
          ) : null
        }
        confirmText={t('sealManage.confirm.ok')}
        confirmLoading={busy}
        onConfirm={() => void runPending()}
        onCancel={() => setPending(null)}
        testId="seal-confirm"
      />
      <FirstUseTour
        page="sealList"
        steps={[
          { target: 'seal-filter-keyword', key: 'filters' },
          { target: 'seal-batch-bar', key: 'batch' },
          { target: 'seal-table', key: 'table' },
        ]}
      />
    </div>
  );
}
