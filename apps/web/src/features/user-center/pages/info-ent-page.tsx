import { Alert, Button, Descriptions, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../../lib/page';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { RealNameTag } from '../../../components/real-name-tag';
import { useAccountInfo } from '../../../hooks/use-session';

/** /userCenter/infoEnt: the organisation of the current space (a notice in the personal space). */
export function InfoEntPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const account = useAccountInfo();
  if (!account.data) return <PageLoading />;
  const org = account.data.userInfoOrg;
  return (
    <div className="os-page" data-testid="info-ent-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/" />
      <div className="os-card">
        {org ? (
          <Descriptions column={1} bordered size="middle" styles={{ label: { width: 180 } }}>
            <Descriptions.Item label={t('info.orgName')}>
              <span data-testid="info-org-name">{org.organizeName}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('info.uscc')}>
              <span data-testid="info-org-uscc">{org.uscc}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('info.realName')}>
              <RealNameTag status={org.hasRealName ? 1 : 0} />
              {org.hasRealName ? null : (
                <Button
                  type="link"
                  size="small"
                  onClick={() =>
                    void navigate(
                      `/userCenter/infoEnt/realName?organizeId=${encodeURIComponent(org.organizeId)}`,
                    )
                  }
                >
                  {t('info.goRealName')}
                </Button>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('info.roles')}>
              <Space size={4} wrap>
                {account.data.roles.map((r) => (
                  <Tag key={r.code} variant="filled" color="blue">
                    {r.name}
                  </Tag>
                ))}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('info.createdAt')}>
              {new Date(org.orgGmtCreateTime).toLocaleString(i18n.language)}
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Alert type="info" showIcon title={t('info.notOrg')} data-testid="info-ent-personal" />
        )}
      </div>
    </div>
  );
}
