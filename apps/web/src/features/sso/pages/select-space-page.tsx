import { BankOutlined, CheckCircleFilled, RightOutlined, UserOutlined } from '@ant-design/icons';
import { LIMITS, maskPhone } from '@openseal/core';
import { Card, Empty, Flex, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RealNameTag } from '../../../components/real-name-tag';
import { useAccountInfo } from '../../../hooks/use-session';
import { useSceneValues } from '../../../hooks/use-system-config';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { reloadTo } from '../../../lib/navigation';
import type { PageProps } from '../../../lib/page';
import { storeAccessToken } from '../../../lib/session';
import { parseSystemConfig } from '../../../lib/system-config';
import { handoverToAccount, useSpaces } from '../api/spaces';
import { selectableSpaces, type SpaceChoice } from '../model/select-space';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Let the success toast be seen before the page reloads. */
const RELOAD_AFTER_TOAST_MS = 600;
const PANEL = {
  width: '100%',
  maxWidth: 560,
  borderRadius: 8,
  boxShadow: '0 8px 28px rgba(15, 35, 70, 0.1)',
} as const;
const ICON = { fontSize: 22, color: 'var(--os-primary)' } as const;

/**
 * /selectSpace (spec sections 2 and 4): after single sign-on a person chooses the personal space or one of
 * their organisations. Choosing switches like the account dropdown does (short delay, handover, new
 * token) and reloads home.
 */
export function SelectSpacePage(_props: PageProps) {
  const { t } = useTranslation();
  const account = useAccountInfo();
  const spaces = useSpaces(account.token);
  const scene = useSceneValues('HOME');
  const [choosing, setChoosing] = useState<string | null>(null);

  const choices =
    spaces.data && scene.data
      ? selectableSpaces(spaces.data, parseSystemConfig(scene.data).personSsoSpace)
      : null;
  const person = account.data?.userInfoPerson;
  const name = person?.name || maskPhone(person?.registerMobile);

  const choose = async (choice: SpaceChoice) => {
    if (choosing) return;
    setChoosing(choice.accountId);
    if (choice.current) {
      reloadTo('/');
      return;
    }
    await sleep(LIMITS.switchDelayMs);
    try {
      const result = await handoverToAccount(choice.accountId);
      storeAccessToken(result.accessToken);
      toastSuccess(t('account.switchSuccess'));
      await sleep(RELOAD_AFTER_TOAST_MS);
      reloadTo('/');
    } catch (error) {
      handleApiError(error);
      setChoosing(null);
    }
  };

  return (
    <div className="os-login" data-testid="select-space-page">
      <Card variant="borderless" style={PANEL} styles={{ body: { padding: '36px 36px 32px' } }}>
        <h1 className="os-login__title">{t('sso.selectTitle')}</h1>
        <p className="os-login__subtitle">
          {name ? (
            <Typography.Text strong data-testid="select-space-who">
              {t('sso.selectWho', { name })}{' '}
            </Typography.Text>
          ) : null}
          {t('sso.selectHint')}
        </p>
        {choices === null ? (
          <div className="os-page-loading">
            <Spin size="large" />
          </div>
        ) : choices.length === 0 ? (
          <Empty description={t('sso.selectEmpty')} />
        ) : (
          <Flex vertical gap={12} data-testid="select-space-list">
            {choices.map((choice) => (
              <Card
                key={choice.accountId}
                hoverable
                size="small"
                styles={{ body: { padding: '14px 16px' } }}
                role="button"
                tabIndex={0}
                aria-disabled={choosing !== null}
                onClick={() => void choose(choice)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') void choose(choice);
                }}
                data-testid="select-space-item"
                data-kind={choice.kind}
                data-account-id={choice.accountId}
                data-current={choice.current ? 'true' : 'false'}
              >
                <Flex align="center" gap={12}>
                  {choice.kind === 'person' ? <UserOutlined style={ICON} /> : <BankOutlined style={ICON} />}
                  <Flex vertical flex={1} style={{ minWidth: 0 }}>
                    <Typography.Text strong ellipsis data-testid="select-space-name">
                      {choice.kind === 'person' ? t('sso.selectPersonal') : choice.name}
                    </Typography.Text>
                    <Typography.Text type="secondary">
                      {choice.kind === 'person' ? t('sso.selectPersonalDesc') : t('sso.selectOrgDesc')}
                    </Typography.Text>
                  </Flex>
                  {choice.current ? (
                    <Tag color="blue" variant="filled" icon={<CheckCircleFilled />}>
                      {t('sso.current')}
                    </Tag>
                  ) : null}
                  <RealNameTag status={choice.realNameStatus} testId="select-space-realname" />
                  {choosing === choice.accountId ? (
                    <Spin size="small" aria-label={t('sso.entering')} />
                  ) : (
                    <RightOutlined />
                  )}
                </Flex>
              </Card>
            ))}
          </Flex>
        )}
      </Card>
    </div>
  );
}
