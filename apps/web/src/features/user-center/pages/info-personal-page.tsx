import { Button, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../../lib/page';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { RealNameTag } from '../../../components/real-name-tag';
import { useAccountInfo } from '../../../hooks/use-session';

/** /userCenter/infoPersonal: the signed-in person. */
export function InfoPersonalPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = useAccountInfo();
  if (!account.data) return <PageLoading />;
  const person = account.data.userInfoPerson;
  return (
    <div className="os-page" data-testid="info-personal-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/" />
      <div className="os-card">
        <Descriptions column={1} bordered size="middle" styles={{ label: { width: 180 } }}>
          <Descriptions.Item label={t('info.name')}>
            <span data-testid="info-person-name">{person.name}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('info.mobile')}>
            <span data-testid="info-person-mobile">{person.registerMobile}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('info.realName')}>
            <RealNameTag status={person.hasRealName ? 1 : 0} />
            {person.hasRealName ? null : (
              <Button
                type="link"
                size="small"
                onClick={() => void navigate('/userCenter/infoPersonal/realName')}
              >
                {t('info.goRealName')}
              </Button>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('info.password')}>
            <Tag variant="filled" color={person.hasPassword ? 'success' : 'default'}>
              {person.hasPassword ? t('info.passwordSet') : t('info.passwordNotSet')}
            </Tag>
            <Button
              type="link"
              size="small"
              onClick={() => void navigate('/userCenter/updatePassword')}
              data-testid="info-password-action"
            >
              {person.hasPassword ? t('info.changePassword') : t('info.setPassword')}
            </Button>
          </Descriptions.Item>
          <Descriptions.Item label={t('info.accountId')}>{person.accountId}</Descriptions.Item>
        </Descriptions>
      </div>
    </div>
  );
}
