import { DownOutlined, LogoutOutlined, PlusOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { LIMITS, maskPhone } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Dropdown, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RealNameTag } from '../../../components/real-name-tag';
import { WarningDialog } from '../../../components/warning-dialog';
import { identityOf, SESSION_QUERY_PREFIX, useAccountInfo } from '../../../hooks/use-session';
import { useSystemConfig } from '../../../hooks/use-system-config';
import { handleApiError } from '../../../lib/api-error-handler';
import type { AccountListEntry, CreateOrgResponse, TokenResponse } from '../../../lib/contracts';
import { toastSuccess } from '../../../lib/feedback';
import { reloadTo } from '../../../lib/navigation';
import { clearSession, getKeySerial, storeAccessToken } from '../../../lib/session';
import { isPlatformRealName } from '../../../lib/system-config';
import {
  deleteOrganization,
  handoverToAccount,
  handoverToPersonal,
  logout,
  OWN_ACCOUNTS_KEY,
  useOwnAccounts,
} from '../api/spaces';
import { spaceMenuVisibility } from '../model/firm-list';
import { safeRedirect } from '../model/safe-redirect';
import { CreateOrgDialog } from './create-org-dialog';
import { OrgList } from './org-list';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Let the success toast be seen before the page reloads. */
const RELOAD_AFTER_TOAST_MS = 600;

type Confirm =
  | { kind: 'delete'; entry: AccountListEntry }
  | { kind: 'logout' }
  | { kind: 'noAdmin'; organizeId: string }
  | null;

/** The account dropdown of spec section 1: who you are, your spaces, create organisation, user centre, logout. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useSystemConfig();
  const account = useAccountInfo();
  const [open, setOpen] = useState(false);
  const [switching, setSwitching] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const accounts = useOwnAccounts(account.token, account.isLoggedIn);

  const info = account.data;
  const identity = identityOf(info) ?? 2;
  const person = info?.userInfoPerson;
  const org = info?.userInfoOrg ?? null;
  const visible = spaceMenuVisibility({
    identityType: identity,
    hasPersonalAccount: Boolean(accounts.data?.personAccount),
    personOrgSwitch: config.personOrgSwitch,
    legalCreateDisable: config.legalCreateDisable,
    isKeyLogin: getKeySerial() !== '',
  });
  const orgs = (accounts.data?.ownAccounts ?? []).filter((a) => a.type === 1);
  const displayName = person?.name || maskPhone(person?.registerMobile);

  /** Spec section 4: wait, hand over, toast, keep the new token, reload at home. */
  const switchSpace = async (handover: () => Promise<TokenResponse>) => {
    setOpen(false);
    setSwitching(true);
    await sleep(LIMITS.switchDelayMs);
    try {
      const result = await handover();
      storeAccessToken(result.accessToken);
      toastSuccess(t('account.switchSuccess'));
      await sleep(RELOAD_AFTER_TOAST_MS);
      reloadTo('/');
    } catch (error) {
      handleApiError(error);
      setSwitching(false);
    }
  };

  const onCreated = (result: CreateOrgResponse) => {
    setCreateOpen(false);
    if (result.status === 0 && result.accessToken) {
      storeAccessToken(result.accessToken);
      toastSuccess(t('createOrg.success'));
      void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_PREFIX] });
      window.setTimeout(() => window.location.reload(), LIMITS.reloadAfterCreateOrgMs);
      return;
    }
    if (result.status === 1) setConfirm({ kind: 'noAdmin', organizeId: result.organizeId });
  };

  const runConfirm = async () => {
    if (!confirm) return;
    if (confirm.kind === 'noAdmin') {
      setConfirm(null);
      void navigate(`/userCenter/infoEnt/realName?organizeId=${encodeURIComponent(confirm.organizeId)}`);
      return;
    }
    setBusy(true);
    try {
      if (confirm.kind === 'delete') {
        await deleteOrganization(confirm.entry.organizeId ?? '');
        toastSuccess(t('account.deleteSuccess'));
        void queryClient.invalidateQueries({ queryKey: OWN_ACCOUNTS_KEY });
        setConfirm(null);
      } else {
        const result = await logout();
        toastSuccess(t('account.logoutSuccess'), LIMITS.logoutMessageMs);
        setConfirm(null);
        clearSession();
        queryClient.removeQueries({ queryKey: [SESSION_QUERY_PREFIX] });
        await sleep(LIMITS.logoutMessageMs);
        reloadTo(safeRedirect(result.redirectUrl));
      }
    } catch (error) {
      // Deleting fails silently (spec section 8); logout errors take the normal route.
      handleApiError(error);
      setConfirm(null);
    } finally {
      setBusy(false);
    }
  };

  const panel = (
    <div className="os-user-panel" data-testid="user-panel">
      <div className="os-user-panel__head">
        <Avatar size={44} icon={<UserOutlined />} className="os-user-panel__avatar" />
        <div className="os-user-panel__who">
          <div className="os-user-panel__name">
            <span data-testid="user-panel-name">{displayName}</span>
            <RealNameTag status={person?.hasRealName ? 1 : 0} testId="user-panel-realname" />
          </div>
          <div className="os-user-panel__mobile" data-testid="user-panel-mobile">
            {t('account.mobile')}: {maskPhone(person?.registerMobile)}
          </div>
          <div className="os-user-panel__space" data-testid="current-space" data-identity={identity}>
            {org ? (
              <>
                <span data-testid="current-space-name">{org.organizeName}</span>
                <RealNameTag status={org.hasRealName ? 1 : 0} testId="current-space-realname" />
              </>
            ) : (
              <span data-testid="current-space-name">{t('account.personalSpace')}</span>
            )}
          </div>
        </div>
      </div>
      {visible.orgList ? (
        <div className="os-user-panel__section">
          <div className="os-user-panel__label">{t('account.myOrgs')}</div>
          {accounts.isLoading ? (
            <div className="os-user-panel__loading">
              <Spin size="small" />
            </div>
          ) : (
            <OrgList
              entries={orgs}
              showRealNameAction={isPlatformRealName(config)}
              onChoose={(entry) => void switchSpace(() => handoverToAccount(entry.accountId))}
              onRealName={(entry) => {
                setOpen(false);
                void navigate(
                  `/userCenter/infoEnt/realName?organizeId=${encodeURIComponent(entry.organizeId ?? '')}`,
                );
              }}
              onDelete={(entry) => {
                setOpen(false);
                setConfirm({ kind: 'delete', entry });
              }}
            />
          )}
        </div>
      ) : null}
      <ul className="os-user-panel__actions">
        {visible.createOrg ? (
          <li>
            <button
              type="button"
              data-testid="create-org-open"
              onClick={() => {
                setOpen(false);
                setCreateOpen(true);
              }}
            >
              <PlusOutlined /> {t('account.createOrg')}
            </button>
          </li>
        ) : null}
        {visible.switchToPersonal ? (
          <li>
            <button
              type="button"
              data-testid="switch-personal"
              onClick={() => void switchSpace(handoverToPersonal)}
            >
              <SwapOutlined /> {t('account.switchPersonal')}
            </button>
          </li>
        ) : null}
        <li>
          <button
            type="button"
            data-testid="user-center-link"
            onClick={() => {
              setOpen(false);
              void navigate('/userCenter');
            }}
          >
            <UserOutlined /> {t('account.userCenter')}
          </button>
        </li>
        <li>
          <button
            type="button"
            className="os-user-panel__logout"
            data-testid="logout-button"
            onClick={() => {
              setOpen(false);
              setConfirm({ kind: 'logout' });
            }}
          >
            <LogoutOutlined /> {t('account.logout')}
          </button>
        </li>
      </ul>
    </div>
  );

  const headline = org ? org.organizeName : displayName;

  return (
    <>
      <Dropdown
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) void queryClient.invalidateQueries({ queryKey: OWN_ACCOUNTS_KEY });
        }}
        trigger={['click']}
        placement="bottomRight"
        popupRender={() => panel}
      >
        <button type="button" className="os-user-trigger" data-testid="user-dropdown">
          <Avatar size={28} icon={<UserOutlined />} />
          <span className="os-user-trigger__name" data-testid="user-dropdown-name">
            {headline}
          </span>
          <DownOutlined className="os-user-trigger__caret" />
        </button>
      </Dropdown>
      {switching ? <Spin fullscreen description={t('account.switching')} /> : null}
      <CreateOrgDialog open={createOpen} onClose={() => setCreateOpen(false)} onCreated={onCreated} />
      <WarningDialog
        open={confirm !== null}
        testId="confirm-dialog"
        danger={confirm?.kind === 'delete'}
        confirmLoading={busy}
        title={
          confirm?.kind === 'delete'
            ? t('account.deleteTitle')
            : confirm?.kind === 'noAdmin'
              ? t('createOrg.noAdminTitle')
              : t('account.logoutTitle')
        }
        content={
          confirm?.kind === 'delete'
            ? t('account.deleteContent', { name: confirm.entry.name })
            : confirm?.kind === 'noAdmin'
              ? t('createOrg.noAdminContent')
              : t('account.logoutContent')
        }
        confirmText={confirm?.kind === 'noAdmin' ? t('createOrg.goRealName') : undefined}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void runConfirm()}
      />
    </>
  );
}
