import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApprovalStatus, FlowStatus, TaskStatus } from '../api/types';
import { APPROVAL_STATUS_COLOURS, FLOW_STATUS_COLOURS, TASK_STATUS_COLOURS } from '../model/status';

/** Coloured tags of the sign status sets; `data-status` carries the wire value for tests. */
export function FlowStatusTag({ status }: { status: FlowStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={FLOW_STATUS_COLOURS[status]} data-testid="flow-status" data-status={status}>
      {t(`signCommon.flowStatus.${status}`)}
    </Tag>
  );
}

export function TaskStatusTag({ status }: { status: TaskStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={TASK_STATUS_COLOURS[status]} data-testid="task-status" data-status={status}>
      {t(`signCommon.taskStatus.${status}`)}
    </Tag>
  );
}

export function ApprovalStatusTag({ status }: { status: ApprovalStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={APPROVAL_STATUS_COLOURS[status]} data-testid="approval-status" data-status={status}>
      {t(`signCommon.approvalStatus.${status}`)}
    </Tag>
  );
}
