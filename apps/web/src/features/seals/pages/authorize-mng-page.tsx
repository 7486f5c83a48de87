import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Result, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { useAccountInfo } from '../../../hooks/use-session';
import type { PageProps } from '../../../lib/page';
import {
  useAuthorisePermission,
  useSealAuthList,
  type AuthStatus,
  type GranteeType,
  type SealAuthorization,
} from '../api/authorize';
import { useMySeals } from '../api/seals';
import { useCancelAuthorization } from '../components/authorize-cancel-dialog';
import {
  AppRangeCell,
  GranteeCell,
  SealCell,
  UsesCell,
  useSealImages,
  ValidityText,
} from '../components/authorize-parts';
import { StatusTag } from '../components/status-tag';
import {
  authActions,
  authorizeDetailPath,
  authorizeEditPath,
  toListRequest,
  type AuthFilters,
} from '../model/authorize-form';

const PAGE_SIZE = 10;
const STATUSES: AuthStatus[] = ['inEffect', 'terminated'];
const GRANTEE_TYPES: GranteeType[] = ['member', 'app'];

/** /sealService/authorizeMng: the organisation's seal authorisations (or the caller's own), filtered and paged. */
export function AuthorizeMngPage({ route }: PageProps) {
  const { t } = useTranslation();
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  const permission = useAuthorisePermission(inOrg);

  if (!account.data || (inOrg && permission.isPending)) return <PageLoading />;
  return (
    <div className="os-page" data-testid="authz-mng-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/sealService/mySealList" />
      {inOrg ? (
        <AuthorizationList canAuthorise={permission.canAuthorise} />
      ) : (
        <div className="os-card">
          <Result status="info" title={t('sealAuthz.personSpace')} data-testid="authz-person-space" />
        </div>
      )}
    </div>
  );
}

function AuthorizationList({ canAuthorise }: { canAuthorise: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<AuthFilters>({});
  const [pageNum, setPageNum] = useState(1);
  const list = useSealAuthList(toListRequest(filters, pageNum, PAGE_SIZE));
  const seals = useMySeals({ pageNum: 1, pageSize: 100 });
  const images = useSealImages();
  const cancel = useCancelAuthorization();

  const setFilter = (patch: Partial<AuthFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPageNum(1);
  };

  const columns: ColumnsType<SealAuthorization> = [
    {
      title: `${t('sealAuthz.seal')} / ${t('sealAuthz.authCode')}`,
      key: 'seal',
      render: (_, a) => <SealCell a={a} image={images.get(a.sealCode)} showAuthCode />,
      onCell: () => ({ style: { minWidth: 230 } }),
    },
    {
      title: t('sealAuthz.grantee'),
      key: 'grantee',
      width: 130,
      render: (_, a) => <GranteeCell a={a} compact />,
    },
    { title: t('sealAuthz.uses'), key: 'uses', width: 110, render: (_, a) => <UsesCell a={a} /> },
    {
      title: t('sealAuthz.validity'),
      key: 'validity',
      width: 112,
      render: (_, a) => <ValidityText a={a} stacked />,
    },
    {
      title: t('sealAuthz.appRange'),
      key: 'appRange',
      width: 100,
      render: (_, a) => <AppRangeCell range={a.appRange} />,
    },
    {
      title: t('sealAuthz.status'),
      key: 'status',
      width: 80,
      render: (_, a) => <StatusTag set="authStatus" value={a.status} />,
    },
    {
      title: t('sealAuthz.operations'),
      key: 'actions',
      width: 130,
      render: (_, a) => {
        const actions = authActions(a, canAuthorise);
        return (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              data-testid="authz-detail"
              onClick={() => void navigate(authorizeDetailPath(a.authCode))}
            >
              {t('sealAuthz.detail')}
            </Button>
            {actions.includes('edit') ? (
              <Button
                type="link"
                size="small"
                data-testid="authz-edit"
                onClick={() => void navigate(authorizeEditPath(a.authCode))}
              >
                {t('sealAuthz.edit')}
              </Button>
            ) : null}
            {actions.includes('cancel') ? (
              <Button
                type="link"
                size="small"
                danger
                data-testid="authz-cancel"
                onClick={() => cancel.ask(a)}
              >
                {t('sealAuthz.cancelShort')}
              </Button>
            ) : null}
          </Space>
        );
      },
    },
  ];

  const sealOptions = (seals.data?.list ?? []).map((s) => ({ value: s.sealCode, label: s.name }));

  return (
    <div className="os-card">
      {!canAuthorise ? (
        <Alert type="info" showIcon message={t('sealAuthz.ownOnly')} style={{ marginBottom: 16 }} />
      ) : null}
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 12,
          alignItems: 'center',
          justifyContent: 'space-between',
          marginBottom: 16,
        }}
      >
        <Space wrap size={12}>
          <Select
            allowClear
            style={{ width: 150 }}
            placeholder={t('sealAuthz.allStatuses')}
            value={filters.status}
            onChange={(status?: AuthStatus) => setFilter({ status })}
            options={STATUSES.map((s) => ({ value: s, label: t(`sealCommon.authStatus.${s}`) }))}
            data-testid="authz-filter-status"
          />
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 220 }}
            placeholder={t('sealAuthz.allSeals')}
            value={filters.sealCode}
            onChange={(sealCode?: string) => setFilter({ sealCode })}
            options={sealOptions}
            loading={seals.isPending}
            data-testid="authz-filter-seal"
          />
          <Select
            allowClear
            style={{ width: 150 }}
            placeholder={t('sealAuthz.allGranteeTypes')}
            value={filters.granteeType}
            onChange={(granteeType?: GranteeType) => setFilter({ granteeType })}
            options={GRANTEE_TYPES.map((g) => ({ value: g, label: t(`sealAuthz.granteeTypes.${g}`) }))}
            data-testid="authz-filter-grantee-type"
          />
        </Space>
        <Space>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void list.refetch()}
            loading={list.isFetching}
            data-testid="authz-refresh"
          >
            {t('sealAuthz.refresh')}
          </Button>
          {canAuthorise ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => void navigate('/sealService/authorizeCreate')}
              data-testid="authz-create"
            >
              {t('sealAuthz.create')}
            </Button>
          ) : null}
        </Space>
      </div>
      <Table<SealAuthorization>
        rowKey="authCode"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching && !list.data}
        data-testid="authz-table"
        onRow={(a) =>
          ({
            'data-testid': 'authz-row',
            'data-id': a.authCode,
            'data-status': a.status,
          }) as HTMLAttributes<HTMLTableRowElement>
        }
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <span data-testid="authz-empty">
                  <div>{t('sealAuthz.empty')}</div>
                  <Typography.Text type="secondary">{t('sealAuthz.emptyHint')}</Typography.Text>
                </span>
              }
            />
          ),
        }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('sealAuthz.total', { total }),
          onChange: setPageNum,
        }}
      />
      {cancel.dialog}
    </div>
  );
}
