import { CheckCircleFilled, StopOutlined } from '@ant-design/icons';
import { Button, Descriptions, Progress, Result, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import type { PageProps } from '../../../lib/page';
import { useAuthorisePermission, useSealAuthDetail, type SealAuthorization } from '../api/authorize';
import { useCancelAuthorization } from '../components/authorize-cancel-dialog';
import {
  AppRangeCell,
  GranteeCell,
  SealThumb,
  useSealImages,
  ValidityText,
} from '../components/authorize-parts';
import { StatusTag } from '../components/status-tag';
import {
  AUTHORIZE_MNG_PATH,
  authActions,
  authorizeEditPath,
  formatTime,
  unusableReason,
  usesView,
} from '../model/authorize-form';

/** /sealService/authorizeDetail?authCode=…: one grant with its seal, grantee, remaining uses and validity. */
export function AuthorizeDetailPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const authCode = params.get('authCode');
  const detail = useSealAuthDetail(authCode);
  const permission = useAuthorisePermission();

  let body;
  if (!authCode || detail.isError)
    body = <Result status="warning" title={t('sealAuthz.notFound')} data-testid="authz-not-found" />;
  else if (!detail.data || permission.isPending) body = <PageLoading />;
  else body = <Detail a={detail.data} canAuthorise={permission.canAuthorise} />;

  return (
    <div className="os-page" data-testid="authz-detail-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback={AUTHORIZE_MNG_PATH} />
      {body}
    </div>
  );
}

function Detail({ a, canAuthorise }: { a: SealAuthorization; canAuthorise: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const images = useSealImages();
  const cancel = useCancelAuthorization();
  const actions = authActions(a, canAuthorise);
  const uses = usesView(a);
  const reason = unusableReason(a, new Date());

  return (
    <>
      <div className="os-card" data-testid="authz-detail" data-id={a.authCode} data-status={a.status}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, alignItems: 'center' }}>
          <SealThumb url={images.get(a.sealCode)} size={112} />
          <div style={{ flex: '1 1 260px', minWidth: 0 }}>
            <Space size={10} wrap align="center">
              <Typography.Title level={4} style={{ margin: 0 }}>
                {a.sealName}
              </Typography.Title>
              <StatusTag set="authStatus" value={a.status} />
              {reason === null ? (
                <Tag
                  icon={<CheckCircleFilled />}
                  color="success"
                  data-testid="authz-usable"
                  data-usable="true"
                >
                  {t('sealAuthz.usableYes')}
                </Tag>
              ) : (
                <Tag icon={<StopOutlined />} data-testid="authz-usable" data-usable="false">
                  {t(`sealAuthz.reasons.${reason}`)}
                </Tag>
              )}
            </Space>
            <div style={{ marginTop: 6, color: 'var(--os-text-2)' }}>
              {t('sealAuthz.authCode')}: <Typography.Text copyable>{a.authCode}</Typography.Text>
            </div>
            <div style={{ marginTop: 4, color: 'var(--os-text-2)' }}>
              {t('sealCommon.sealCode')}: {a.sealCode}
            </div>
          </div>
          <div style={{ flex: '0 0 220px', textAlign: 'center' }} data-testid="authz-detail-uses">
            {uses.unlimited ? (
              <Progress
                type="dashboard"
                percent={100}
                size={130}
                format={() => <span style={{ fontSize: 18 }}>{t('sealAuthz.unlimited')}</span>}
                data-testid="authz-uses"
                data-unlimited="true"
              />
            ) : (
              <Progress
                type="dashboard"
                percent={uses.percent}
                size={130}
                status={uses.remaining === 0 ? 'exception' : 'normal'}
                format={() => (
                  <span style={{ fontSize: 22 }}>
                    {uses.remaining}
                    <span style={{ fontSize: 14, color: 'var(--os-text-2)' }}>/{uses.total}</span>
                  </span>
                )}
                data-testid="authz-uses"
                data-unlimited="false"
                data-remaining={uses.remaining}
                data-total={uses.total}
              />
            )}
            <div style={{ color: 'var(--os-text-2)' }}>
              {uses.unlimited ? t('sealAuthz.uses') : t('sealAuthz.usedCount', { used: uses.used })}
            </div>
          </div>
        </div>
      </div>

      <div className="os-card">
        <Descriptions
          title={t('sealAuthz.authInfo')}
          bordered
          size="middle"
          column={{ xs: 1, sm: 1, md: 2 }}
          styles={{ label: { width: 140 } }}
        >
          <Descriptions.Item label={t('sealAuthz.grantee')}>
            <GranteeCell a={a} />
          </Descriptions.Item>
          <Descriptions.Item label={t('sealAuthz.authoriser')}>
            <span data-testid="authz-authoriser">{a.authoriserName ?? '-'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('sealAuthz.uses')}>
            {uses.unlimited
              ? t('sealAuthz.unlimited')
              : t('sealAuthz.usesCount', { remaining: uses.remaining, total: uses.total })}
          </Descriptions.Item>
          <Descriptions.Item label={t('sealAuthz.validity')}>
            <ValidityText a={a} />
          </Descriptions.Item>
          <Descriptions.Item label={t('sealAuthz.appRange')}>
            <AppRangeCell range={a.appRange} />
          </Descriptions.Item>
          <Descriptions.Item label={t('sealAuthz.status')}>
            <StatusTag set="authStatus" value={a.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('sealAuthz.createTime')}>{formatTime(a.createTime)}</Descriptions.Item>
          <Descriptions.Item label={t('sealAuthz.terminateTime')}>
            <span data-testid="authz-terminate-time">{formatTime(a.terminateTime)}</span>
          </Descriptions.Item>
        </Descriptions>
        {actions.length > 1 ? (
          <Space style={{ marginTop: 24 }}>
            <Button
              type="primary"
              onClick={() => void navigate(authorizeEditPath(a.authCode))}
              data-testid="authz-detail-edit"
            >
              {t('sealAuthz.edit')}
            </Button>
            <Button danger onClick={() => cancel.ask(a)} data-testid="authz-detail-cancel">
              {t('sealAuthz.cancel')}
            </Button>
          </Space>
        ) : null}
      </div>
      {cancel.dialog}
    </>
  );
}
