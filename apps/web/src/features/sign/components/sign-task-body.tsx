import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleApiError } from '../../../lib/api-error-handler';
import { getFrontData } from '../api/will';
import type { FlowDetail } from '../api/types';
import { decodeFrontData, type FrontData } from '../model/placement-draft';
import { canSignTask } from '../model/status';
import { SignPanel } from './sign-panel';

/**
 * Signing one task of a loaded flow. With a confirmed will-auth record (`willBizId`, back from the
 * stand-alone will-auth page) it first restores the page state saved before leaving, then signs.
 */
export function SignTaskBody({
  flow,
  taskId,
  willBizId,
  redirectPath,
  onDone,
  onApprovalRequested,
}: {
  flow: FlowDetail;
  taskId: string;
  willBizId: string | null;
  redirectPath: string;
  onDone: () => void;
  onApprovalRequested?: () => void;
}) {
  const { t } = useTranslation();
  const [restored, setRestored] = useState<{ data: FrontData; willBizId: string } | null | undefined>(
    willBizId ? undefined : null,
  );

  useEffect(() => {
    if (!willBizId) return;
    let live = true;
    getFrontData(willBizId)
      .then((r) => {
        const data = decodeFrontData(r.data);
        if (live) setRestored(data && data.taskId === taskId ? { data, willBizId } : null);
      })
      .catch((error: unknown) => {
        handleApiError(error);
        if (live) setRestored(null);
      });
    return () => {
      live = false;
    };
  }, [willBizId, taskId]);

  const mine = flow.signers.find((s) => s.taskId === taskId);
  if (restored === undefined) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (mine && !canSignTask(mine.status) && mine.status !== 'inApproval')
    return <Alert type="info" showIcon title={t('signPlace.notSignable')} data-testid="sign-not-signable" />;
  return (
    <SignPanel
      flow={flow}
      taskId={taskId}
      redirectPath={redirectPath}
      restored={restored}
      onSigned={onDone}
      onApprovalRequested={onApprovalRequested}
    />
  );
}
