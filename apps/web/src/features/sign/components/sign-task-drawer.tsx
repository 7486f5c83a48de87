import { Drawer, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { PhoneQrButton } from '../../../components/qr-code';
import { mobileHref } from '../../../lib/device';
import { useFlowDetail } from '../api/flows';
import { SignTaskBody } from './sign-task-body';
import { FlowStatusTag } from './status-tags';

/** The signing panel of one task (signByMe) in a wide drawer. */
export function SignTaskDrawer({
  flowId,
  taskId,
  willBizId,
  redirectPath,
  onClose,
  onDone,
}: {
  flowId: string;
  taskId: string;
  willBizId: string | null;
  redirectPath: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const flow = useFlowDetail(flowId);
  const detail = flow.data;
  return (
    <Drawer
      open
      size={1240}
      onClose={onClose}
      destroyOnHidden
      title={
        <span data-testid="sign-drawer-title">
          {detail?.name ?? t('signCommon.sign')} {detail ? <FlowStatusTag status={detail.status} /> : null}
        </span>
      }
      data-testid="sign-drawer"
      extra={
        <PhoneQrButton
          address={mobileHref(redirectPath)}
          caption={t('qrCode.signCaption')}
          testId="sign-phone-qr"
        />
      }
    >
      {detail ? (
        <SignTaskBody
          flow={detail}
          taskId={taskId}
          willBizId={willBizId}
          redirectPath={redirectPath}
          onDone={onDone}
          onApprovalRequested={() => void flow.refetch()}
        />
      ) : (
        <Spin style={{ display: 'block', padding: 48 }} />
      )}
    </Drawer>
  );
}
