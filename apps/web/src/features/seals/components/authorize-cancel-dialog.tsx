import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WarningDialog } from '../../../components/warning-dialog';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { cancelSealAuth, SEAL_AUTH_KEY, type SealAuthorization } from '../api/authorize';

/**
 * Terminating a grant: a confirmation naming the grantee and the seal, then cancelAuth; the server's
 * catalogued message shows when it refuses (already terminated, no permission).
 */
export function useCancelAuthorization(onDone?: (a: SealAuthorization) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<SealAuthorization | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (!target) return;
    setBusy(true);
    try {
      const ended = await cancelSealAuth(target.authCode);
      toastSuccess(t('sealAuthz.cancelDone'));
      setTarget(null);
      await queryClient.invalidateQueries({ queryKey: SEAL_AUTH_KEY });
      onDone?.(ended);
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const grantee = target
    ? target.granteeType === 'member'
      ? (target.granteeName ?? target.granteeId)
      : target.granteeId
    : '';
  const dialog = (
    <WarningDialog
      open={target !== null}
      title={t('sealAuthz.cancelTitle')}
      content={target ? t('sealAuthz.cancelContent', { grantee, seal: target.sealName }) : null}
      confirmText={t('sealAuthz.cancelOk')}
      danger
      confirmLoading={busy}
      onConfirm={() => void confirm()}
      onCancel={() => setTarget(null)}
      testId="authz-cancel-dialog"
    />
  );
  return { ask: setTarget, dialog };
}
