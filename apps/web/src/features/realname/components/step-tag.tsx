import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RealNameStep } from '../api/realname';

const COLORS: Record<RealNameStep, string> = {
  draft: 'default',
  awaitingCode: 'processing',
  awaitingAmount: 'processing',
  verifying: 'processing',
  awaitingReview: 'warning',
  success: 'success',
  failure: 'error',
};

/** A flow step as a coloured tag in the UI language. */
export function StepTag({ step, testId }: { step: string; testId?: string }) {
  const { t } = useTranslation();
  const known = step in COLORS ? (step as RealNameStep) : null;
  return (
    <Tag color={known ? COLORS[known] : 'default'} variant="filled" data-testid={testId} data-step={step}>
      {known ? t(`realNameFlow.step_${known}`) : step}
    </Tag>
  );
}
