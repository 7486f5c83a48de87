import { CloseOutlined, ExclamationCircleFilled } from '@ant-design/icons';
import { LIMITS } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button, theme, Tooltip } from 'antd';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { identityOf, isSpaceRealNamed, useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { closeRemind, REMIND_KEY, useLastRemind, useScenePermission } from '../api/flow';
import {
  effectiveRemindType,
  isTipHidden,
  mayLoadTip,
  renewTarget,
  showsRenewButton,
  tipTextKey,
  tipTextParams,
} from '../model/seal-expiry-tip';

function isInIframe(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    // A cross-origin parent denies access to `top`: that is a frame too.
    return true;
  }
}

/**
 * The seal-expiry tip of spec sections 3, 4 and 6: a 44 px bar under the header naming the certificate
 * that expires soonest (or has expired, or is no longer valid), with a renew button and a close button.
 * Closing records it on the server, which answers the next tip to show, or none.
 */
export function SealExpiryTip() {
  const location = useLocation();
  const hidden = isTipHidden(location.pathname, isInIframe());
  const account = useAccountInfo();
  const identity = identityOf(account.data);
  const realNamed = isSpaceRealNamed(account.data);
  const isOrg = identity === 1 && realNamed && !hidden;
  const sealManage = useScenePermission('sealManage', isOrg);
  const receiveUkey = useScenePermission('receiveUkey', isOrg && sealManage.data?.allowed === false);
  const may = mayLoadTip({
    identity,
    realNamed,
    sealManage: sealManage.data?.allowed,
    receiveUkey: receiveUkey.data?.allowed,
  });
  const tip = useLastRemind(may && !hidden);
  if (hidden || !may || !tip.data) return null;
  return <ExpiryBar tip={tip.data} pathname={location.pathname} token={account.token} />;
}

function ExpiryBar({
  tip,
  pathname,
  token: accessToken,
}: {
  tip: NonNullable<ReturnType<typeof useLastRemind>['data']>;
  pathname: string;
  token: string | null;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [closing, setClosing] = useState(false);
  const type = effectiveRemindType(tip);
  const isSevere = type !== 'IN_OF_DATE' && type !== 'TODAY_IN_OF_DATE';

  const close = async () => {
    setClosing(true);
    try {
      const next = await closeRemind(tip.certId);
      client.setQueryData([...REMIND_KEY, accessToken], next);
    } catch (error) {
      handleApiError(error);
      // The tip may be gone already (closed elsewhere): ask again.
      void client.invalidateQueries({ queryKey: REMIND_KEY });
    } finally {
      setClosing(false);
    }
  };

  const style: CSSProperties = {
    height: LIMITS.topTipHeight,
    boxSizing: 'border-box',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: 12,
    padding: '0 48px 0 24px',
    position: 'relative',
    background: isSevere ? token.colorErrorBg : token.colorWarningBg,
    borderBottom: `1px solid ${isSevere ? token.colorErrorBorder : token.colorWarningBorder}`,
    color: token.colorText,
    overflow: 'hidden',
    whiteSpace: 'nowrap',
  };
  return (
    <div
      role="status"
      style={style}
      data-testid="seal-expiry-tip"
      data-cert-id={tip.certId}
      data-remind-type={type}
      data-seal-code={tip.sealCode}
    >
      <ExclamationCircleFilled style={{ color: isSevere ? token.colorError : token.colorWarning }} />
      <span
        data-testid="seal-expiry-tip-text"
        style={{ overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}
        title={t(tipTextKey(tip), tipTextParams(tip))}
      >
        {t(tipTextKey(tip), tipTextParams(tip))}
      </span>
      {showsRenewButton(tip, pathname) ? (
        <Button
          type="primary"
          size="small"
          data-testid="seal-expiry-tip-renew"
          onClick={() => void navigate(renewTarget(tip))}
        >
          {t('sealRemind.renew')}
        </Button>
      ) : null}
      <Tooltip title={t('sealRemind.close')}>
        <Button
          type="text"
          size="small"
          aria-label={t('sealRemind.close')}
          icon={<CloseOutlined />}
          loading={closing}
          onClick={() => void close()}
          data-testid="seal-expiry-tip-close"
          style={{ position: 'absolute', right: 12, top: '50%', transform: 'translateY(-50%)' }}
        />
      </Tooltip>
    </div>
  );
}
