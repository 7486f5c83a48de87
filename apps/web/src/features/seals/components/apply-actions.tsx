import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { retryMaking, revokeApply, submitDraft, type WorkOrder } from '../api/apply';
import { SEALS_KEY } from '../api/seals';
import { claimPath, detailPath, rowActions, type RowAction, type Viewer } from '../model/apply-records';
import { ApplyClaimLinkDialog } from './apply-claim-link-dialog';

type Confirmed = Extract<RowAction, 'revoke' | 'submit' | 'retry'>;

const CALLS: Record<Confirmed, (applyNo: string) => Promise<unknown>> = {
  revoke: revokeApply,
  submit: submitDraft,
  retry: retryMaking,
};

/**
 * The buttons of one application, the same in the record list and the detail: submit a draft, withdraw,
 * retry after failed making (each confirmed first), claim or send the claim link, view the made seal.
 */
export function ApplyActions({
  order,
  viewer,
  variant = 'link',
  hideDetail = false,
  onChanged,
}: {
  order: WorkOrder;
  viewer: Viewer;
  /** Links in a table row, buttons on the detail page. */
  variant?: 'link' | 'button';
  hideDetail?: boolean;
  onChanged?: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [linkFor, setLinkFor] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<RowAction | null>(null);

  const actions = rowActions(order, viewer).filter((a) => !(hideDetail && a === 'detail'));

  const confirmThen = (action: Confirmed) =>
    modal.confirm({
      title: t(`sealApply.confirm.${action}Title`),
      content: t(`sealApply.confirm.${action}Text`, { applyNo: order.applyNo }),
      okText: t('sealApply.confirm.ok'),
      cancelText: t('sealApply.confirm.cancel'),
      okButtonProps: { danger: action === 'revoke' },
      className: 'os-apply-confirm',
      onOk: async () => {
        setBusy(action);
        try {
          await CALLS[action](order.applyNo);
          toastSuccess(t(`sealApply.done.${action}`));
          await queryClient.invalidateQueries({ queryKey: SEALS_KEY });
          onChanged?.();
        } catch (error) {
          handleApiError(error);
        } finally {
          setBusy(null);
        }
      },
    });

  const onClick = (action: RowAction) => {
    switch (action) {
      case 'detail':
        return void navigate(detailPath(order));
      case 'claim':
        return void navigate(claimPath(order.applyNo));
      case 'viewSeal':
        return void navigate('/sealService/mySealList');
      case 'sendLink':
        return setLinkFor([order.applyNo]);
      case 'revoke':
      case 'submit':
      case 'retry':
        return confirmThen(action);
      default: {
        const never: never = action;
        return never;
      }
    }
  };

  const isLink = variant === 'link';
  return (
    <>
      <Space size={isLink ? 0 : 8} wrap>
        {actions.map((action) => (
          <Button
            key={action}
            type={isLink ? 'link' : action === 'claim' || action === 'submit' ? 'primary' : 'default'}
            size={isLink ? 'small' : 'middle'}
            danger={action === 'revoke'}
            loading={busy === action}
            data-testid={`apply-action-${action}`}
            onClick={() => onClick(action)}
          >
            {t(`sealApply.action.${action}`)}
          </Button>
        ))}
      </Space>
      <ApplyClaimLinkDialog applyNos={linkFor} onClose={() => setLinkFor(null)} />
    </>
  );
}
