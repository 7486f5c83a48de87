import { UserOutlined } from '@ant-design/icons';
import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccountInfo } from '../../hooks/use-session';
import { Brand } from './brand';
import { LanguageSwitch } from './language-switch';

/** The simplified header of the seal-collection flow: brand, the flow's name, who is signed in. */
export function SealFlowHeader() {
  const { t } = useTranslation();
  const account = useAccountInfo();
  const name = account.data?.userInfoOrg?.organizeName ?? account.data?.userInfoPerson.name;
  return (
    <Layout.Header className="os-header os-header--flow" data-testid="seal-flow-header">
      <div className="os-header__inner">
        <Brand />
        <span className="os-header__flow-divider" />
        <span className="os-header__flow-title">{t('header.sealFlowTitle')}</span>
        <div className="os-header__tools">
          <LanguageSwitch />
          {name ? (
            <span className="os-header__flow-user">
              <UserOutlined /> {name}
            </span>
          ) : null}
        </div>
      </div>
    </Layout.Header>
  );
}
