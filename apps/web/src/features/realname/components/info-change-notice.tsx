import { ArrowRightOutlined, ExclamationCircleFilled } from '@ant-design/icons';
import { LIMITS, roleName } from '@openseal/core';
import { Alert, Button, Descriptions, theme, Typography } from 'antd';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AppDialog } from '../../../components/app-dialog';
import { useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { normaliseLanguage } from '../../../lib/language';
import { storeAccessToken } from '../../../lib/session';
import {
  confirmChangedItems,
  useChangedItemsCheck,
  useHolders,
  type ChangedItem,
  type Holders,
} from '../api/realname';
import {
  addressWithoutFlowId,
  CHANGE_CONFIRM_ROLES,
  isChangeCancelled,
  mayConfirmChange,
  rememberChangeCancelled,
} from '../model/info-change';
import { SandboxNotice } from './sandbox-tag';

/** The full-page confirmation shows the same data: the dialog does not open over it by itself. */
const INFO_MODIFY_PATH = '/userCenter/infoModify';

/** Let the success toast be seen before the page reloads. */
const RELOAD_AFTER_TOAST_MS = 600;

/** Spec section 4: a close reloads the page without `flowId` (a plain reload when nothing changes). */
function reloadWithoutFlowId(): void {
  const next = addressWithoutFlowId(window.location.href);
  const current = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  if (next === current) window.location.reload();
  else window.location.replace(next);
}

/**
 * The info-change tip and dialog of spec sections 4, 6 and 9, for a real-named organisation whose
 * registry data differ from the platform's. After load or login the dialog opens unless it was cancelled
 * in this session; the 44 px tip under the header stays until someone confirms, and reopens the dialog.
 * Confirming stores the new token the server answers and reloads; cancelling stops the dialog opening by
 * itself for the rest of the session; closing reloads the page without `flowId`.
 */
export function InfoChangeNotice({ showTip }: { showTip: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const account = useAccountInfo();
  const org = account.data?.userInfoOrg ?? null;
  const organizeId = org?.organizeId ?? null;
  const check = useChangedItemsCheck(account.token, org?.hasRealName === true);
  // null: the dialog follows the spec's rule on its own; true or false: the user opened or dismissed it.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);

  const items = check.data?.discoverChangedItems ?? [];
  const hasChanges = organizeId !== null && items.length > 0 && !confirmed;
  const opensByItself =
    organizeId !== null && !isChangeCancelled(organizeId) && location.pathname !== INFO_MODIFY_PATH;
  const open = hasChanges && (chosen ?? opensByItself);
  const mayConfirm = mayConfirmChange(
    account.data?.roles ?? [],
    check.data?.legalChangedCurrentLoginUserHasChangePermission ?? false,
  );
  const holders = useHolders(open && !mayConfirm);

  if (!hasChanges || organizeId === null) return null;

  const cancel = () => {
    rememberChangeCancelled(organizeId);
    setChosen(false);
  };

  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await confirmChangedItems();
      storeAccessToken(answer.changedBindAccessToken);
      setConfirmed(true);
      toastSuccess(t('infoChange.confirmed'));
      window.setTimeout(reloadWithoutFlowId, RELOAD_AFTER_TOAST_MS);
    } catch (error) {
      handleApiError(error);
      setBusy(false);
    }
  };

  return (
    <>
      {showTip ? <InfoChangeTip onOpen={() => setChosen(true)} /> : null}
      <AppDialog
        open={open}
        title={t('infoChange.title')}
        maskClosable={false}
        keyboard={false}
        onCancel={reloadWithoutFlowId}
        footer={[
          <Button key="later" onClick={cancel} disabled={busy} data-testid="info-change-later">
            {t('infoChange.later')}
          </Button>,
          mayConfirm ? (
            <Button
              key="confirm"
              type="primary"
              loading={busy}
              onClick={() => void confirm()}
              data-testid="info-change-confirm"
            >
              {t('infoChange.confirm')}
            </Button>
          ) : null,
        ]}
      >
        <div data-testid="info-change-dialog" data-may-confirm={mayConfirm}>
          <SandboxNotice sandbox={check.data?.sandbox} />
          <Typography.Paragraph>{t('infoChange.intro')}</Typography.Paragraph>
          <ChangedItemList items={items} />
          {mayConfirm ? null : <WhoMayConfirm holders={holders.data} />}
        </div>
      </AppDialog>
    </>
  );
}

/** The 44 px bar under the header (spec section 9), in the theme's warning colours. */
function InfoChangeTip({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const style: CSSProperties = {
    height: LIMITS.topTipHeight,
    boxSizing: 'border-box',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: 8,
    padding: '0 24px',
    background: token.colorWarningBg,
    borderBottom: `1px solid ${token.colorWarningBorder}`,
    color: token.colorText,
    overflow: 'hidden',
    whiteSpace: 'nowrap',
  };
  return (
    <div role="status" style={style} data-testid="info-change-tip">
      <ExclamationCircleFilled style={{ color: token.colorWarning }} />
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{t('infoChange.tipText')}</span>
      <Button type="link" size="small" onClick={onOpen} data-testid="info-change-tip-open">
        {t('infoChange.tipAction')}
      </Button>
    </div>
  );
}

function ChangedItemList({ items }: { items: readonly ChangedItem[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Descriptions column={1} bordered size="small" styles={{ label: { width: 120 } }}>
      {items.map((item) => (
        <Descriptions.Item key={item.field} label={t(`infoChange.field_${item.field}`)}>
          <span data-testid="info-change-item" data-field={item.field}>
            <span
              title={t('infoChange.current')}
              style={{ color: token.colorTextSecondary }}
              data-testid="info-change-current"
            >
              {item.current}
            </span>
            <ArrowRightOutlined style={{ margin: '0 8px', color: token.colorTextTertiary }} />
            <span title={t('infoChange.registry')} data-testid="info-change-registry">
              {item.registry}
            </span>
          </span>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** For a member who may not confirm: the roles that may, and who holds the two named ones. */
function WhoMayConfirm({ holders }: { holders: Holders | undefined }) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const roles = CHANGE_CONFIRM_ROLES.map((r) => roleName(r, language)).join(t('infoChange.rolesSeparator'));
  const people = holders
    ? (['legalPerson', 'superAdmin'] as const).flatMap((role) => {
        const h = holders[role];
        if (!h) return [];
        const values = { role: roleName(role, language), name: h.name, mobile: h.mobile };
        // A holder who has not proven a real name yet has no name on the platform: the masked mobile says who.
        return [t(h.name ? 'infoChange.holder' : 'infoChange.holderNoName', values)];
      })
    : [];
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginTop: 16 }}
      data-testid="info-change-no-permission"
      title={`${t('infoChange.noPermission')}${t('infoChange.whoRoles', { roles })}`}
      description={
        people.length > 0 ? (
          <span data-testid="info-change-holders">
            {t('infoChange.whoHolders')}
            {people.join(t('infoChange.rolesSeparator'))}
          </span>
        ) : undefined
      }
    />
  );
}
