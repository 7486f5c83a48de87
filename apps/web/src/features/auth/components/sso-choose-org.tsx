import { BankOutlined, RightOutlined, UserOutlined } from '@ant-design/icons';
import { Button, List, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RealNameTag } from '../../../components/real-name-tag';
import { confirmSsoSpace, useSsoAgentInfo, type SsoOwnOrganize, type SsoResult } from '../api/sso';

/** operateType 2, organisation choice login: one of the person's organisations, or the personal space. */
export function SsoChooseOrg({
  flowId,
  organizes,
  onAnswer,
  onFailure,
}: {
  flowId: string;
  /** The organisations the result already named; the waiting step's info refreshes them. */
  organizes: readonly SsoOwnOrganize[];
  onAnswer: (result: SsoResult) => void;
  onFailure: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const info = useSsoAgentInfo(flowId, true);
  const [choosing, setChoosing] = useState<string | null>(null);
  const { error } = info;
  useEffect(() => {
    if (error) onFailure(error);
  }, [error, onFailure]);

  const choose = async (organizeId: string | null) => {
    setChoosing(organizeId ?? 'person');
    try {
      onAnswer(await confirmSsoSpace({ flowId, organizeId }));
    } catch (e) {
      onFailure(e);
      setChoosing(null);
    }
  };

  const list = info.data?.ownOrganizes ?? organizes;
  const who = info.data?.name
    ? t('sso.chooseOrgWho', { name: info.data.name, mobile: info.data.mobile ?? '' })
    : null;
  return (
    <div data-testid="sso-choose-org">
      <h1 className="os-login__title">{t('sso.chooseOrgTitle')}</h1>
      <p className="os-login__subtitle">
        {who ? <Typography.Text strong>{who} </Typography.Text> : null}
        {t('sso.chooseOrgHint')}
      </p>
      {info.isLoading ? (
        <div className="os-page-loading">
          <Spin />
        </div>
      ) : (
        <List
          bordered
          dataSource={list}
          renderItem={(org) => (
            <List.Item
              key={org.organizeId}
              data-testid="sso-choose-org-item"
              data-org-id={org.organizeId}
              extra={
                <Button
                  type="link"
                  icon={<RightOutlined />}
                  iconPlacement="end"
                  loading={choosing === org.organizeId}
                  disabled={choosing !== null}
                  onClick={() => void choose(org.organizeId)}
                  data-testid="sso-choose-org-enter"
                >
                  {t('sso.enter')}
                </Button>
              }
            >
              <List.Item.Meta
                avatar={<BankOutlined />}
                title={org.organizeName}
                description={<RealNameTag status={org.realNameStatus} />}
              />
            </List.Item>
          )}
        />
      )}
      <Button
        block
        size="large"
        icon={<UserOutlined />}
        style={{ marginTop: 16 }}
        loading={choosing === 'person'}
        disabled={choosing !== null}
        onClick={() => void choose(null)}
        data-testid="sso-choose-personal"
      >
        {t('sso.personalSpace')}
      </Button>
    </div>
  );
}
