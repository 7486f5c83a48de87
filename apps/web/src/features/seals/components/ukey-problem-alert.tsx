import { Alert, Button, Collapse, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { agentUrl } from '../api/ukey-agent';
import type { UkeyProblem } from '../model/ukey-problems';
import { UkeyAgentSetup } from './ukey-agent-setup';

/**
 * One UKey problem of spec section 8 on screen: a headline, the catalogued text the agent or server
 * answered, what to do, and — when the component service is missing — how to get it running.
 */
export function UkeyProblemAlert({
  problem,
  onRedetect,
  testId = 'ukey-problem',
  extra,
}: {
  problem: UkeyProblem;
  onRedetect?: () => void;
  testId?: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const hint = t(problem.hintKey, { url: agentUrl(), count: problem.attemptsLeft ?? 0 });
  const showHint = problem.kind !== 'pinWrong' || problem.attemptsLeft !== null;
  return (
    <Alert
      type={problem.kind === 'multiple' ? 'warning' : 'error'}
      showIcon
      data-testid={testId}
      data-problem={problem.kind}
      message={t(problem.titleKey)}
      description={
        <div>
          {problem.detail ? <div data-testid={`${testId}-detail`}>{problem.detail}</div> : null}
          {showHint ? <div style={{ color: 'var(--os-text-2)' }}>{hint}</div> : null}
          {extra}
          {problem.needsAgent ? (
            <Collapse
              size="small"
              ghost
              style={{ marginTop: 8 }}
              items={[
                {
                  key: 'setup',
                  label: t('ukeyMng.downloadAgent'),
                  children: <UkeyAgentSetup onSaved={onRedetect} />,
                },
              ]}
            />
          ) : null}
          {onRedetect && problem.canRedetect ? (
            <Space style={{ marginTop: 8 }}>
              <Button size="small" onClick={onRedetect} data-testid={`${testId}-redetect`}>
                {t('ukeyMng.bindDialog.redetect')}
              </Button>
            </Space>
          ) : null}
        </div>
      }
    />
  );
}
