import { ExclamationCircleFilled } from '@ant-design/icons';
import { LIMITS } from '@openseal/core';
import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The warning dialog of spec section 2: 440 px, a title, content and one or two buttons. It cannot be
 * dismissed by clicking outside, by Escape or by a close icon: the user answers with a button.
 */
export interface WarningDialogProps {
  open: boolean;
  title: ReactNode;
  content: ReactNode;
  confirmText?: ReactNode;
  cancelText?: ReactNode;
  /** false: only the confirm button. */
  showCancel?: boolean;
  danger?: boolean;
  confirmLoading?: boolean;
  onConfirm: () => void;
  onCancel?: () => void;
  testId?: string;
}

export function WarningDialog(props: WarningDialogProps) {
  const { t } = useTranslation();
  const showCancel = props.showCancel ?? true;
  const testId = props.testId ?? 'warning-dialog';
  return (
    <Modal
      open={props.open}
      width={LIMITS.warningDialogWidth}
      centered
      title={null}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={[
        showCancel ? (
          <Button key="cancel" onClick={props.onCancel} data-testid={`${testId}-cancel`}>
            {props.cancelText ?? t('common.cancel')}
          </Button>
        ) : null,
        <Button
          key="confirm"
          type="primary"
          danger={props.danger}
          loading={props.confirmLoading}
          onClick={props.onConfirm}
          data-testid={`${testId}-confirm`}
        >
          {props.confirmText ?? t('common.confirm')}
        </Button>,
      ]}
    >
      <div className="os-warning" data-testid={`${testId}-body`}>
        <ExclamationCircleFilled className="os-warning__icon" />
        <div>
          <div className="os-warning__title">{props.title}</div>
          <div className="os-warning__content">{props.content}</div>
        </div>
      </div>
    </Modal>
  );
}
