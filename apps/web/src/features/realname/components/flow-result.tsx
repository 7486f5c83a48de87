import { ClockCircleOutlined, LoadingOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { normaliseLanguage } from '../../../lib/language';
import type { RealNameResult } from '../api/realname';
import { reasonText } from '../model/reason';
import { SandboxNotice } from './sandbox-tag';

export interface FlowResultProps {
  result: RealNameResult;
  /** Where "done" leads (the info page of the person or organisation). */
  donePath: string;
  /** The realNameAuditDetail page of this flow. */
  detailPath: string;
  onRetry: () => void;
}

/** Waiting, awaiting review, success or failure (with the reason and a retry) of one real-name flow. */
export function FlowResult({ result, donePath, detailPath, onRetry }: FlowResultProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const detailButton = (
    <Button key="detail" onClick={() => void navigate(detailPath)} data-testid="realname-detail-link">
      {t('realNameFlow.viewDetail')}
    </Button>
  );
  const body = (() => {
    if (result.status === 'success')
      return (
        <Result
          status="success"
          title={t('realNameFlow.successTitle')}
          subTitle={
            result.organizeType === 1 ? t('realNameFlow.successOrgText') : t('realNameFlow.successPersonText')
          }
          extra={[
            <Button
              key="done"
              type="primary"
              onClick={() => void navigate(result.redirectUrl ?? donePath)}
              data-testid="realname-done"
            >
              {t('realNameFlow.done')}
            </Button>,
            detailButton,
          ]}
        />
      );
    if (result.status === 'failure')
      return (
        <Result
          status="error"
          title={t('realNameFlow.failureTitle')}
          subTitle={
            <span data-testid="realname-reason">
              {t('realNameFlow.failureReason', {
                reason: result.reason
                  ? reasonText(result.reason, normaliseLanguage(i18n.language))
                  : t('realNameFlow.noReason'),
              })}
            </span>
          }
          extra={[
            <Button key="retry" type="primary" onClick={onRetry} data-testid="realname-retry">
              {t('realNameFlow.retry')}
            </Button>,
            detailButton,
          ]}
        />
      );
    if (result.step === 'awaitingReview')
      return (
        <Result
          icon={<ClockCircleOutlined style={{ color: '#1677ff' }} />}
          title={t('realNameFlow.reviewTitle')}
          subTitle={t('realNameFlow.reviewText')}
          extra={[detailButton]}
        />
      );
    return (
      <Result
        icon={<LoadingOutlined style={{ color: '#1677ff' }} />}
        title={t('realNameFlow.verifyingTitle')}
        subTitle={t('realNameFlow.verifyingText')}
      />
    );
  })();
  return (
    <div data-testid="realname-result" data-status={result.status} data-step={result.step}>
      <SandboxNotice sandbox={result.sandbox} />
      {body}
    </div>
  );
}
