import { Button, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleApiError } from '../../../lib/api-error-handler';
import { AppDialog } from '../../../components/app-dialog';
import { createWill, saveFrontData } from '../api/will';
import type { CreateWillResponse } from '../api/types';
import { WillAuthPanel } from './will-auth-panel';

/**
 * The will-auth step of signing as a dialog. It creates the will-auth record for the task when it opens;
 * the signer confirms here, or on the stand-alone page (the page's placements are saved first and
 * restored on return, with `willAuth=3&willBizId=…` in the address).
 */
export function WillAuthDialog({
  taskId,
  open,
  redirectUrl,
  frontData,
  onVerified,
  onCancel,
}: {
  taskId: string;
  open: boolean;
  /** Same-site address to come back to from the stand-alone page. */
  redirectUrl: string;
  /** The page state to keep across the stand-alone page. */
  frontData: () => string;
  onVerified: (willBizId: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [will, setWill] = useState<CreateWillResponse | null>(null);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (!open) {
      setWill(null);
      return;
    }
    let live = true;
    createWill(taskId, redirectUrl)
      .then((w) => live && setWill(w))
      .catch((error: unknown) => {
        handleApiError(error);
        if (live) onCancel();
      });
    return () => {
      live = false;
    };
    // A new record each time the dialog opens; the callbacks do not restart it.
  }, [open, taskId]);

  const openStandalone = async () => {
    if (!will) return;
    setLeaving(true);
    try {
      await saveFrontData(will.willBizId, frontData());
      window.location.assign(will.url);
    } catch (error) {
      handleApiError(error);
      setLeaving(false);
    }
  };

  return (
    <AppDialog
      open={open}
      title={t('signWill.title')}
      footer={null}
      onCancel={onCancel}
      mask={{ closable: false }}
    >
      {will ? (
        <>
          <WillAuthPanel
            willBizId={will.willBizId}
            mobile={will.mobile}
            onVerified={(s) => s.status === 'verified' && onVerified(s.willBizId)}
          />
          <div style={{ textAlign: 'center', marginTop: 12 }}>
            <Button
              type="link"
              size="small"
              loading={leaving}
              onClick={() => void openStandalone()}
              data-testid="will-standalone"
            >
              {t('signWill.standalone')}
            </Button>
          </div>
        </>
      ) : (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      )}
    </AppDialog>
  );
}
