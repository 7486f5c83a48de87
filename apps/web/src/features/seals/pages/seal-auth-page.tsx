import { ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Empty, Pagination, Result, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { useAccountInfo } from '../../../hooks/use-session';
import type { PageProps } from '../../../lib/page';
import { useAuthorSeals, useSealAuthList, type SealAuthorization } from '../api/authorize';
import {
  AppRangeCell,
  SealThumb,
  UsesCell,
  useSealImages,
  ValidityText,
} from '../components/authorize-parts';
import { StatusTag } from '../components/status-tag';
import { unusableReason } from '../model/authorize-form';

/** Grants per page of "all my grants": four rows of a three-column grid. */
const PAGE_SIZE = 12;

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))',
  gap: 16,
} as const;

/**
 * /sealAuth: the grantee's side of seal authorisation, on desktop and phone alike (spec section 2 keeps
 * phones here): the seals the caller may use now, and every grant made to them with its remaining uses.
 */
export function SealAuthPage({ route }: PageProps) {
  const { t } = useTranslation();
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  if (!account.data) return <PageLoading />;
  return (
    <div className="os-page" data-testid="seal-auth-page" style={{ width: '100%', minWidth: 0 }}>
      <div className="os-card" style={{ padding: '16px 20px' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t(route.titleKey, { ns: 'route' })}
        </Typography.Title>
        {account.data.userInfoOrg ? (
          <Typography.Text type="secondary">{account.data.userInfoOrg.organizeName}</Typography.Text>
        ) : null}
      </div>
      {inOrg ? (
        <Granted />
      ) : (
        <div className="os-card">
          <Result status="info" title={t('sealAuthz.personSpace')} data-testid="authz-person-space" />
        </div>
      )}
    </div>
  );
}

function Granted() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const usable = useAuthorSeals();
  // `mine`: only the grants to the caller, even for holders of the authorise point.
  const mine = useSealAuthList({ mine: true, pageNum, pageSize: PAGE_SIZE });
  const images = useSealImages();
  const own = mine.data?.list ?? [];
  const total = mine.data?.total ?? 0;
  // A page past the end (grants ended meanwhile) goes back to the last one there is.
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  useEffect(() => {
    if (mine.data && pageNum > lastPage) setPageNum(lastPage);
  }, [mine.data, pageNum, lastPage]);
  const refresh = () => {
    void usable.refetch();
    void mine.refetch();
  };

  return (
    <>
      <div className="os-card" style={{ padding: 20 }}>
        <div
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 8,
            alignItems: 'center',
            justifyContent: 'space-between',
            marginBottom: 4,
          }}
        >
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('sealAuthz.mineTitle')}
          </Typography.Title>
          <Button
            icon={<ReloadOutlined />}
            onClick={refresh}
            loading={usable.isFetching || mine.isFetching}
            data-testid="seal-auth-refresh"
          >
            {t('sealAuthz.refresh')}
          </Button>
        </div>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 16 }}>
          {t('sealAuthz.mineIntro')}
        </Typography.Paragraph>
        {!usable.data ? (
          usable.isError ? (
            <Empty description={t('sealAuthz.mineEmpty')} />
          ) : (
            <PageLoading />
          )
        ) : usable.data.list.length === 0 ? (
          <Empty
            image={<SafetyCertificateOutlined style={{ fontSize: 56, color: '#c9ced6' }} />}
            styles={{ image: { height: 64 } }}
            description={
              <span data-testid="seal-auth-empty">
                <div>{t('sealAuthz.mineEmpty')}</div>
                <Typography.Text type="secondary">{t('sealAuthz.mineEmptyHint')}</Typography.Text>
              </span>
            }
          />
        ) : (
          <div style={GRID} data-testid="seal-auth-usable">
            {usable.data.list.map((a) => (
              <GrantCard key={a.authCode} a={a} image={images.get(a.sealCode)} testId="seal-auth-card" />
            ))}
          </div>
        )}
      </div>

      <div className="os-card" style={{ padding: 20 }}>
        <Typography.Title level={5} style={{ margin: '0 0 16px' }}>
          {t('sealAuthz.allMine')}
        </Typography.Title>
        {!mine.data ? (
          mine.isError ? (
            <Empty description={t('sealAuthz.allMineEmpty')} />
          ) : (
            <PageLoading />
          )
        ) : own.length === 0 && total === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={<span data-testid="seal-auth-all-empty">{t('sealAuthz.allMineEmpty')}</span>}
          />
        ) : (
          <>
            <div style={GRID} data-testid="seal-auth-all" data-total={total}>
              {own.map((a) => (
                <GrantCard key={a.authCode} a={a} image={images.get(a.sealCode)} testId="seal-auth-grant" />
              ))}
            </div>
            {total > PAGE_SIZE ? (
              <Pagination
                style={{ marginTop: 16, justifyContent: 'flex-end' }}
                current={pageNum}
                pageSize={PAGE_SIZE}
                total={total}
                showSizeChanger={false}
                onChange={setPageNum}
                data-testid="seal-auth-pager"
              />
            ) : null}
          </>
        )}
      </div>
    </>
  );
}

function GrantCard({
  a,
  image,
  testId,
}: {
  a: SealAuthorization;
  image: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const reason = unusableReason(a, new Date());
  return (
    <div
      data-testid={testId}
      data-id={a.authCode}
      data-seal-code={a.sealCode}
      data-status={a.status}
      data-usable={a.usable ? 'true' : 'false'}
      style={{
        display: 'flex',
        flexDirection: 'column',
        gap: 12,
        minWidth: 0,
        padding: 16,
        border: '1px solid var(--os-border)',
        borderTop: `3px solid ${a.usable ? 'var(--os-seal-red)' : '#c9ced6'}`,
        borderRadius: 6,
        background: a.usable ? '#fff' : '#fafbfc',
      }}
    >
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', minWidth: 0 }}>
        <SealThumb url={image} size={64} />
        <div style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text strong style={{ display: 'block', fontSize: 15, lineHeight: 1.4 }}>
            {a.sealName}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ display: 'block', fontSize: 12 }}>
            {a.authCode}
          </Typography.Text>
          <Space size={4} style={{ marginTop: 4 }} wrap>
            <StatusTag set="authStatus" value={a.status} />
            {reason && reason !== 'terminated' ? (
              <Typography.Text type="warning" style={{ fontSize: 12 }}>
                {t(`sealAuthz.reasons.${reason}`)}
              </Typography.Text>
            ) : null}
          </Space>
        </div>
      </div>
      <dl style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '6px 12px', margin: 0 }}>
        <dt style={{ color: 'var(--os-text-2)' }}>{t('sealAuthz.uses')}</dt>
        <dd style={{ margin: 0, minWidth: 0 }}>
          <UsesCell a={a} />
        </dd>
        <dt style={{ color: 'var(--os-text-2)' }}>{t('sealAuthz.validity')}</dt>
        <dd style={{ margin: 0 }}>
          <ValidityText a={a} />
        </dd>
        <dt style={{ color: 'var(--os-text-2)' }}>{t('sealAuthz.appRange')}</dt>
        <dd style={{ margin: 0, minWidth: 0 }}>
          <AppRangeCell range={a.appRange} />
        </dd>
        <dt style={{ color: 'var(--os-text-2)' }}>{t('sealAuthz.authoriser')}</dt>
        <dd style={{ margin: 0 }}>{a.authoriserName ?? '-'}</dd>
      </dl>
    </div>
  );
}
