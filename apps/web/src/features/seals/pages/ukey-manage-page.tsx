import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Space, Table, Tabs, Tag, Tooltip } from 'antd';
import type { ButtonProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { AppDialog } from '../../../components/app-dialog';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { isSpaceRealNamed, useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { agentUrl, ukeyAgent } from '../api/ukey-agent';
import {
  cancelUkeyBinding,
  UKEYS_KEY,
  useBoundUkeys,
  useUkeyApplyInfo,
  useUkeyPermissionPoints,
  type BoundUkey,
  type UkeyKind,
} from '../api/ukeys';
import { UkeyAgentSetup } from '../components/ukey-agent-setup';
import { UkeyApplyPanel } from '../components/ukey-apply-panel';
import { UkeyBindDialog } from '../components/ukey-bind-dialog';
import { UkeyCertDialog } from '../components/ukey-cert-dialog';
import { useUkeySealNames } from '../components/ukey-seal-select';
import {
  CERT_STATUS_COLOUR,
  daysLeft,
  isRenewalDue,
  keyRowActions,
  tabOf,
  type ManageTab,
} from '../model/ukey-actions';

const PAGE_SIZE = 10;

/** Whether the local component service answers, and which one. */
function AgentStatusBar({ onSetup }: { onSetup: () => void }) {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: [...UKEYS_KEY, 'agent', 'status', agentUrl()],
    queryFn: () => ukeyAgent.status(),
    retry: false,
    staleTime: 10_000,
  });
  return (
    <div
      data-testid="ukey-agent-status"
      data-connected={status.isSuccess ? 'true' : status.isError ? 'false' : 'checking'}
      style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap', color: 'var(--os-text-2)' }}
    >
      <span>{t('ukeyMng.agent.title')}：</span>
      {status.isPending ? (
        <Tag>{t('ukeyMng.agent.checking')}</Tag>
      ) : status.isSuccess ? (
        <Tag color="green">
          {t('ukeyMng.agent.connected', { name: status.data.name, version: status.data.version })}
        </Tag>
      ) : (
        <Tooltip title={agentUrl()}>
          <Tag color="red">{t('ukeyMng.agent.disconnected')}</Tag>
        </Tooltip>
      )}
      <Button size="small" type="link" onClick={() => void status.refetch()} data-testid="ukey-agent-recheck">
        {t('ukeyMng.agent.recheck')}
      </Button>
      <Button size="small" type="link" onClick={onSetup} data-testid="ukey-agent-download-open">
        {t('ukeyMng.downloadAgent')}
      </Button>
    </div>
  );
}

/**
 * /sealService/ukeyManage: the organisation's bound UKeys — authentication keys (online tab) and signing
 * keys (offline tab) — with their certificates and seals, binding a key through the local agent, and the
 * UKey applications with their import states (apply tab). Only keys bound here can be edited or unbound.
 */
export function UkeyManagePage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  const realNamed = isSpaceRealNamed(account.data);
  const points = useUkeyPermissionPoints();
  const canManage = (points.data ?? []).includes('seal.manage');
  const canReceive = (points.data ?? []).includes('ukey.receive');
  const [params, setParams] = useSearchParams();
  const tab: ManageTab = tabOf(params.get('tab'));
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const kind: UkeyKind = tab === 'online' ? 'online' : 'offline';
  const list = useBoundUkeys(
    { tab: kind, keyword: keyword.trim() || undefined, pageNum, pageSize: PAGE_SIZE },
    inOrg && realNamed && canManage && tab !== 'apply',
  );
  const sealName = useUkeySealNames(inOrg && realNamed);
  const [binding, setBinding] = useState(false);
  const [setup, setSetup] = useState(false);
  const [certOf, setCertOf] = useState<string | null>(null);
  const info = useUkeyApplyInfo(canReceive && binding);

  if (!account.data || points.isPending) return <PageLoading />;
  const title = t(route.titleKey, { ns: 'route' });
  const time = (v: string) => new Date(v).toLocaleString(i18n.language);
  const date = (v: string) => new Date(v).toLocaleDateString(i18n.language);
  const refresh = () => queryClient.invalidateQueries({ queryKey: UKEYS_KEY });
  const changeTab = (next: ManageTab) => {
    setParams(
      (p) => {
        const copy = new URLSearchParams(p);
        copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );
    setPageNum(1);
  };

  const unbind = (k: BoundUkey) =>
    Modal.confirm({
      title: t('ukeyMng.unbindTitle'),
      content: t('ukeyMng.unbindText', { name: k.ukeyName, serial: k.ukeySn }),
      okText: t('ukeyMng.unbind'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'ukey-unbind-confirm' } as ButtonProps,
      onOk: async () => {
        try {
          await cancelUkeyBinding(k.ukeySn);
          toastSuccess(t('ukeyMng.unbound'));
          await refresh();
        } catch (error) {
          handleApiError(error);
        }
      },
    });

  const now = new Date();
  const columns: ColumnsType<BoundUkey> = [
    {
      title: t('ukeyMng.col.name'),
      key: 'name',
      render: (_, k) => (
        <div>
          <div data-testid="ukey-row-name" style={{ fontWeight: 500 }}>
            {k.ukeyName}
          </div>
          <div style={{ color: 'var(--os-text-2)', fontSize: 12 }} data-testid="ukey-row-sn">
            {t('ukeyMng.col.serial')}：{k.ukeySn}
          </div>
        </div>
      ),
    },
    {
      title: t('ukeyMng.col.certificate'),
      key: 'cert',
      render: (_, k) => (
        <div style={{ fontSize: 13, lineHeight: 1.7 }}>
          <div>
            {t('ukeyMng.col.holder')}：{k.holder ?? '—'}
          </div>
          <div style={{ color: 'var(--os-text-2)' }}>
            {t('ukeyMng.col.certSerial')}：
            <Tooltip title={k.certSerial}>
              <span style={{ fontFamily: 'monospace' }}>
                {k.certSerial.length > 16 ? `${k.certSerial.slice(0, 16)}…` : k.certSerial}
              </span>
            </Tooltip>
          </div>
          <div style={{ color: 'var(--os-text-2)' }}>
            {t('ukeyMng.col.validity')}：{date(k.notBefore)} ~ {date(k.notAfter)}
          </div>
        </div>
      ),
    },
    {
      title: t('ukeyMng.col.certStatus'),
      key: 'certStatus',
      render: (_, k) => (
        <Space direction="vertical" size={4}>
          <Tag
            color={CERT_STATUS_COLOUR[k.certStatus]}
            data-testid="ukey-row-cert-status"
            data-status={k.certStatus}
          >
            {t(`ukeyMng.certStatus.${k.certStatus}`)}
          </Tag>
          {isRenewalDue(k.notAfter, now) ? (
            <Tag color="orange">{t('ukeyMng.daysLeft', { days: daysLeft(k.notAfter, now) })}</Tag>
          ) : null}
        </Space>
      ),
    },
    ...(kind === 'offline'
      ? [
          {
            title: t('ukeyMng.col.seals'),
            key: 'seals',
            render: (_: unknown, k: BoundUkey) =>
              k.sealCodes.length ? (
                <Space size={4} wrap data-testid="ukey-row-seals">
                  {k.sealCodes.map((c) => (
                    <Tooltip key={c} title={c}>
                      <Tag color="red" variant="outlined" style={{ whiteSpace: 'normal', maxWidth: 200 }}>
                        {sealName(c)}
                      </Tag>
                    </Tooltip>
                  ))}
                </Space>
              ) : (
                <span style={{ color: 'var(--os-text-2)' }}>{t('ukeyMng.noSeals')}</span>
              ),
          },
        ]
      : []),
    {
      title: t('ukeyMng.col.bindStatus'),
      key: 'bindStatus',
      render: (_, k) => (
        <div style={{ fontSize: 13 }}>
          <Tag
            color={k.status === 'bound' ? 'blue' : 'default'}
            data-testid="ukey-row-bind-status"
            data-status={k.status}
          >
            {t(`ukeyMng.bindStatus.${k.status}`)}
          </Tag>
          <div style={{ color: 'var(--os-text-2)', marginTop: 4, whiteSpace: 'nowrap' }}>
            {time(k.bindTime)}
          </div>
        </div>
      ),
    },
    {
      title: t('ukeyMng.col.actions'),
      key: 'actions',
      render: (_, k) => (
        <Space size={0} wrap>
          {keyRowActions(k, { manage: canManage }).map((action) =>
            action === 'certProperties' ? (
              <Button
                key={action}
                type="link"
                size="small"
                data-testid="ukey-row-cert"
                onClick={() => setCertOf(k.ukeySn)}
              >
                {t('ukeyMng.certProperties')}
              </Button>
            ) : action === 'edit' ? (
              <Button
                key={action}
                type="link"
                size="small"
                data-testid="ukey-row-edit"
                onClick={() => void navigate(`/ChangeUkeySeal?ukeySn=${encodeURIComponent(k.ukeySn)}`)}
              >
                {t('ukeyMng.edit')}
              </Button>
            ) : (
              <Button
                key={action}
                type="link"
                size="small"
                danger
                data-testid="ukey-row-unbind"
                onClick={() => unbind(k)}
              >
                {t('ukeyMng.unbind')}
              </Button>
            ),
          )}
        </Space>
      ),
    },
  ];

  const keysSection = !canManage ? (
    <Alert type="warning" showIcon message={t('ukeyMng.noPermission')} data-testid="ukey-no-permission" />
  ) : (
    <>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t(`ukeyMng.tabHint.${kind}`)} />
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
          <Button type="primary" data-testid="ukey-bind-open" onClick={() => setBinding(true)}>
            {t('ukeyMng.bind')}
          </Button>
          <Button data-testid="ukey-refresh" onClick={() => void refresh()}>
            {t('ukeyMng.refresh')}
          </Button>
        </Space>
        <Input.Search
          allowClear
          style={{ width: 260 }}
          placeholder={t('ukeyMng.keyword')}
          data-testid="ukey-search"
          onSearch={(v) => {
            setKeyword(v);
            setPageNum(1);
          }}
        />
      </div>
      <Table<BoundUkey>
        rowKey="ukeySn"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        data-testid={`ukey-table-${kind}`}
        onRow={(k) =>
          ({
            'data-testid': 'ukey-row',
            'data-id': k.ukeySn,
            'data-status': k.status,
            'data-kind': k.kind,
          }) as HTMLAttributes<HTMLElement>
        }
        locale={{ emptyText: t('ukeyMng.emptyKeys') }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
      />
    </>
  );

  return (
    <div className="os-page" data-testid="ukey-manage-page">
      <BackHeader
        title={title}
        fallback="/sealService/mySealList"
        extra={<AgentStatusBar onSetup={() => setSetup(true)} />}
      />
      <div className="os-card">
        {!inOrg ? (
          <Alert type="info" showIcon message={t('ukeyMng.orgOnly')} data-testid="ukey-org-only" />
        ) : !realNamed ? (
          <Alert
            type="warning"
            showIcon
            message={t('ukeyMng.realNameFirst')}
            data-testid="ukey-real-name-first"
          />
        ) : (
          <Tabs
            activeKey={tab}
            onChange={(k) => changeTab(k as ManageTab)}
            items={[
              {
                key: 'online',
                label: <span data-testid="ukey-tab-online">{t('ukeyMng.tab.online')}</span>,
                children: tab === 'online' ? keysSection : null,
              },
              {
                key: 'offline',
                label: <span data-testid="ukey-tab-offline">{t('ukeyMng.tab.offline')}</span>,
                children: tab === 'offline' ? keysSection : null,
              },
              {
                key: 'apply',
                label: <span data-testid="ukey-tab-apply">{t('ukeyMng.tab.apply')}</span>,
                children:
                  tab === 'apply' ? (
                    canReceive ? (
                      <>
                        <Alert
                          type="info"
                          showIcon
                          style={{ marginBottom: 12 }}
                          message={t('ukeyMng.tabHint.apply')}
                        />
                        <UkeyApplyPanel canReceive={canReceive} />
                      </>
                    ) : (
                      <Alert type="warning" showIcon message={t('ukeyMng.noApplyPermission')} />
                    )
                  ) : null,
              },
            ]}
          />
        )}
      </div>

      {binding ? (
        <UkeyBindDialog
          open={binding}
          defaultKind={kind}
          holder={info.data ? { uscc: info.data.uscc } : undefined}
          boundSerials={(list.data?.list ?? []).map((k) => k.ukeySn)}
          onClose={() => setBinding(false)}
          onBound={(k) => {
            setBinding(false);
            void refresh();
            if (k.kind !== kind) changeTab(k.kind);
          }}
        />
      ) : null}
      <UkeyCertDialog ukeySn={certOf} onClose={() => setCertOf(null)} />
      <AppDialog
        open={setup}
        width={640}
        title={t('ukeyMng.download.title')}
        footer={null}
        onCancel={() => setSetup(false)}
      >
        <UkeyAgentSetup
          onSaved={() => void queryClient.invalidateQueries({ queryKey: [...UKEYS_KEY, 'agent'] })}
        />
      </AppDialog>
    </div>
  );
}
