import { LIMITS } from '@openseal/core';
import { Modal, type ModalProps } from 'antd';

/** Every dialog other than the warning dialog: 510 px wide (spec section 9). */
export function AppDialog({ width, ...props }: ModalProps) {
  return <Modal width={width ?? LIMITS.dialogWidth} centered destroyOnHidden {...props} />;
}
