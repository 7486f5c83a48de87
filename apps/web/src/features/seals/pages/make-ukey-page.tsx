import { contracts } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Modal, Result, Space, Steps, Tag } from 'antd';
import type { ButtonProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess, toastWarning } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import { ukeyAgent } from '../api/ukey-agent';
import {
  executeUkeyApplyOpt,
  fetchChallenge,
  fetchMakingData,
  finishUkeyApply,
  UKEYS_KEY,
  useUkeyApplyDetail,
  useUkeyApplyInfo,
  type UkeyMakingData,
} from '../api/ukeys';
import { ApplyStatusTag } from '../components/ukey-apply-panel';
import { problemOf } from '../components/ukey-bind-dialog';
import { UkeyKeyPicker, useAgentKeys } from '../components/ukey-key-picker';
import { UkeyProblemAlert } from '../components/ukey-problem-alert';
import { useUkeySealNames } from '../components/ukey-seal-select';
import {
  MAKING_STEPS,
  makingActions,
  nextStep,
  START,
  stepShows,
  type MakingProgress,
  type MakingStep,
} from '../model/ukey-making';
import { keyChoosable, pinError, type UkeyProblem } from '../model/ukey-problems';

/** What this page learnt while making: kept only in memory (the PIN above all). */
interface Session {
  serial: string;
  pin: string;
  publicKeySpki?: string;
  making?: UkeyMakingData;
}

const MANAGE = '/sealService/ukeyManage';

/**
 * /makeUKey?applyNo=…: making (importing) a UKey for an application on this computer. The agent
 * generates a key pair on the key, the platform certifies its public key (makingData), the agent writes
 * the certificate and seal images into the key, and the key signs the server's challenge so the import
 * is done and the key bound. A failed import is marked failed (its certificate revoked) and retried.
 */
export function MakeUkeyPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const applyNo = params.get('applyNo')?.trim() || null;
  const detail = useUkeyApplyDetail(applyNo);
  const info = useUkeyApplyInfo(applyNo !== null);
  const a = detail.data;
  const session = useRef<Session | null>(null);
  const [progress, setProgress] = useState<MakingProgress>(START);
  const [problem, setProblem] = useState<UkeyProblem | null>(null);
  const [serial, setSerial] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  /** The reason typed in the "mark failed" confirmation (read when it is confirmed, not when it opened). */
  const reason = useRef('');
  const inSession = session.current?.making !== undefined;
  const wanted = a?.ukeyType === 'ukey_offline_renewal' ? a.targetUkeySn : null;
  const detecting = !!a && (a.status === 'toImport' || (a.status === 'importing' && inSession)) && !inSession;
  const keys = useAgentKeys(detecting);
  const sealName = useUkeySealNames(applyNo !== null);

  // The wanted key (a renewal's) or the only key is chosen at once; one gone away or locked is forgotten.
  useEffect(() => {
    const list = keys.data ?? [];
    const current = serial ? list.find((k) => k.serial === serial) : undefined;
    if (serial && (!current || !keyChoosable(current, wanted))) setSerial(null);
    else if (!serial) {
      const pick = wanted ? list.find((k) => k.serial === wanted) : list.length === 1 ? list[0] : undefined;
      if (pick && keyChoosable(pick, wanted)) setSerial(pick.serial);
    }
  }, [keys.data, serial, wanted]);

  if (!applyNo)
    return (
      <div className="os-page" data-testid="make-ukey-page">
        <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback={`${MANAGE}?tab=apply`} />
        <div className="os-card">
          <Alert type="warning" showIcon message={t('ukeyMngMake.missingApplyNo')} />
        </div>
      </div>
    );
  if (detail.isPending) return <PageLoading />;

  const holder = info.data ? { uscc: info.data.uscc } : undefined;
  const refresh = () => queryClient.invalidateQueries({ queryKey: UKEYS_KEY });

  /** Runs the steps from `from` on; stops at the first failure, which the page shows on its step. */
  const run = async (from: MakingStep) => {
    if (!a) return;
    let step: MakingStep | null = from;
    setProblem(null);
    try {
      while (step) {
        setProgress({ step, failed: false, running: true });
        const s: Session | null = session.current;
        switch (step) {
          case 'detect': {
            const key = keys.data?.find((k) => k.serial === serial);
            if (!key) throw new Error('no key');
            session.current = { serial: key.serial, pin };
            break;
          }
          case 'pin':
            await ukeyAgent.verifyPin(s!.serial, s!.pin);
            break;
          case 'certify': {
            if (!s!.publicKeySpki)
              s!.publicKeySpki = (await ukeyAgent.generateKeyPair(s!.serial, s!.pin)).publicKeySpki;
            s!.making = await fetchMakingData({
              applyNo: a.applyNo,
              ukeySn: s!.serial,
              publicKeySpki: s!.publicKeySpki,
            });
            void refresh();
            break;
          }
          case 'write': {
            const m = s!.making!;
            const images = m.seals.flatMap((x) =>
              x.imagePng ? [{ sealCode: x.sealCode, imagePng: x.imagePng }] : [],
            );
            await ukeyAgent.writeCertificate(s!.serial, s!.pin, m.certificate, images, holder);
            break;
          }
          case 'prove': {
            const challenge = await fetchChallenge(s!.serial);
            const signed = await ukeyAgent.signText(s!.serial, s!.pin, challenge.challenge, holder);
            await finishUkeyApply({
              applyNo: a.applyNo,
              ukeySn: s!.serial,
              challengeId: challenge.challengeId,
              signature: signed.signature,
            });
            toastSuccess(t('ukeyMngMake.success'));
            break;
          }
        }
        step = nextStep(step);
      }
      setProgress({ step: 'prove', failed: false, running: false });
      await refresh();
    } catch (error) {
      setProgress({ step: step ?? 'prove', failed: true, running: false });
      setProblem(problemOf(error));
      void refresh();
    }
  };

  const start = () => {
    const e = pinError(pin, contracts.UKEY_LIMITS);
    if (e) {
      toastWarning(
        e === 'required'
          ? t('ukeyMng.bindDialog.pinRequired')
          : t('ukeyMng.bindDialog.pinLength', {
              min: contracts.UKEY_LIMITS.pinMin,
              max: contracts.UKEY_LIMITS.pinMax,
            }),
      );
      return;
    }
    void run('detect');
  };
  /** A failed step again; a new PIN goes with it when the PIN was the problem. */
  const again = () => {
    if (session.current && pin) session.current.pin = pin;
    void run(progress.step === 'detect' ? 'detect' : progress.step);
  };

  const markFailed = () => {
    reason.current = '';
    Modal.confirm({
      title: t('ukeyMngMake.markFailedTitle'),
      content: (
        <div>
          <p>{t('ukeyMngMake.markFailedText')}</p>
          <Input.TextArea
            maxLength={200}
            rows={2}
            placeholder={t('ukeyMngMake.failReason')}
            onChange={(e) => (reason.current = e.target.value)}
            data-testid="make-ukey-fail-reason"
          />
        </div>
      ),
      okButtonProps: { danger: true, 'data-testid': 'make-ukey-fail-confirm' } as ButtonProps,
      okText: t('ukeyMngMake.markFailed'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await executeUkeyApplyOpt({
            applyNo: applyNo,
            opt: 'fail',
            reason: reason.current.trim() || undefined,
          });
          session.current = null;
          setProgress(START);
          setProblem(null);
          toastSuccess(t('ukeyMngMake.markedFailed'));
          await refresh();
        } catch (error) {
          handleApiError(error);
        }
      },
    });
  };

  const retry = async () => {
    try {
      await executeUkeyApplyOpt({ applyNo, opt: 'retry' });
      session.current = null;
      setProgress(START);
      setProblem(null);
      toastSuccess(t('ukeyMngMake.retried'));
      await refresh();
    } catch (error) {
      handleApiError(error);
    }
  };

  const title = t(route.titleKey, { ns: 'route' });
  if (!a)
    return (
      <div className="os-page" data-testid="make-ukey-page">
        <BackHeader title={title} fallback={`${MANAGE}?tab=apply`} />
        <div className="os-card">
          <Alert type="error" showIcon message={detail.error?.message ?? ''} />
        </div>
      </div>
    );

  const shows = stepShows(a.status, progress);
  const actions = makingActions(a.status, inSession);
  const running = progress.running;
  const time = (v: string) => new Date(v).toLocaleString(i18n.language);

  return (
    <div className="os-page" data-testid="make-ukey-page" data-status={a.status}>
      <BackHeader title={title} fallback={`${MANAGE}?tab=apply`} />
      <div className="os-card" style={{ marginBottom: 16 }}>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, md: 3 }}
          title={t('ukeyMngMake.application')}
          data-testid="make-ukey-application"
          items={[
            { key: 'no', label: t('ukeyMng.col.applyNo'), children: a.applyNo },
            {
              key: 'type',
              label: t('ukeyMng.col.applyType'),
              children: t(`ukeyMng.applyType.${a.ukeyType}`),
            },
            { key: 'name', label: t('ukeyMng.col.name'), children: a.ukeyName },
            { key: 'status', label: t('ukeyMng.col.status'), children: <ApplyStatusTag status={a.status} /> },
            {
              key: 'seals',
              label: t('ukeyMng.col.seals'),
              children: a.sealCodes.length ? (
                <Space size={4} wrap>
                  {a.sealCodes.map((c) => (
                    <Tag key={c} color="red" variant="outlined">
                      {sealName(c)}
                    </Tag>
                  ))}
                </Space>
              ) : (
                t('ukeyMng.noSeals')
              ),
            },
            { key: 'time', label: t('ukeyMng.col.createTime'), children: time(a.createTime) },
            ...(info.data
              ? [{ key: 'holder', label: t('ukeyMng.applyDialog.holder'), children: info.data.organizeName }]
              : []),
            ...(a.targetUkeySn
              ? [{ key: 'target', label: t('ukeyMng.col.targetKey'), children: a.targetUkeySn }]
              : []),
          ]}
        />
      </div>
      <div className="os-card">
        <Steps
          data-testid="make-ukey-steps"
          current={a.status === 'success' ? MAKING_STEPS.length : MAKING_STEPS.indexOf(progress.step)}
          items={MAKING_STEPS.map((s, i) => ({
            title: (
              <span data-testid={`make-ukey-step-${s}`} data-show={shows[i]}>
                {t(`ukeyMngMake.steps.${s}`)}
              </span>
            ),
            description: t(`ukeyMngMake.stepHint.${s}`),
            status: shows[i],
          }))}
          style={{ marginBottom: 24 }}
        />

        {a.status === 'success' ? (
          <Result
            status="success"
            title={t('ukeyMngMake.success')}
            subTitle={t('ukeyMngMake.successText', { name: a.ukeyName, serial: a.ukeySn ?? '' })}
            data-testid="make-ukey-success"
            extra={
              <Button
                type="primary"
                onClick={() =>
                  void navigate(`${MANAGE}?tab=${a.ukeyType === 'ukey_online' ? 'online' : 'offline'}`)
                }
                data-testid="make-ukey-to-manage"
              >
                {t('ukeyMngMake.toManage')}
              </Button>
            }
          />
        ) : a.status === 'revoked' ? (
          <Alert
            type="info"
            showIcon
            message={t('ukeyMngMake.revokedText')}
            data-testid="make-ukey-revoked"
          />
        ) : (
          <div style={{ maxWidth: 720 }}>
            {a.status === 'failure' ? (
              <Alert
                type="error"
                showIcon
                style={{ marginBottom: 12 }}
                message={t('ukeyMng.applyStatus.failure')}
                description={a.failureReason ?? undefined}
                data-testid="make-ukey-failed"
              />
            ) : null}
            {a.status === 'importing' && !inSession ? (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                message={t('ukeyMngMake.importingElsewhere')}
                data-testid="make-ukey-elsewhere"
              />
            ) : null}
            {actions.includes('make') || (actions.includes('resume') && progress.failed) ? (
              <>
                {!inSession ? (
                  <>
                    {wanted ? (
                      <Alert
                        type="info"
                        showIcon
                        style={{ marginBottom: 12 }}
                        message={t('ukeyMngMake.renewalKey', { serial: wanted })}
                      />
                    ) : null}
                    <div style={{ marginBottom: 8, fontWeight: 500 }}>{t('ukeyMngMake.key')}</div>
                    <UkeyKeyPicker keys={keys} value={serial} onChange={setSerial} wantedSerial={wanted} />
                  </>
                ) : null}
                <Form layout="vertical" style={{ marginTop: 16 }}>
                  <Form.Item label={t('ukeyMng.bindDialog.pin')} required>
                    <Input.Password
                      value={pin}
                      autoComplete="off"
                      maxLength={contracts.UKEY_LIMITS.pinMax}
                      placeholder={t('ukeyMng.bindDialog.pinPlaceholder')}
                      onChange={(e) => setPin(e.target.value)}
                      data-testid="make-ukey-pin"
                      style={{ maxWidth: 320 }}
                    />
                  </Form.Item>
                </Form>
              </>
            ) : null}
            {problem ? (
              <div style={{ marginBottom: 12 }}>
                <UkeyProblemAlert
                  problem={problem}
                  testId="make-ukey-error"
                  onRedetect={!inSession ? () => void keys.refetch() : undefined}
                />
              </div>
            ) : null}
            <Space wrap>
              {actions.includes('make') && !progress.failed ? (
                <Button
                  type="primary"
                  loading={running}
                  disabled={!serial}
                  onClick={start}
                  data-testid="make-ukey-start"
                >
                  {t('ukeyMngMake.start')}
                </Button>
              ) : null}
              {progress.failed && (actions.includes('make') || actions.includes('resume')) ? (
                <Button
                  type="primary"
                  loading={running}
                  disabled={!inSession && !serial}
                  onClick={again}
                  data-testid="make-ukey-again"
                >
                  {t('ukeyMngMake.retryStep')}
                </Button>
              ) : null}
              {actions.includes('markFailed') && !running ? (
                <Button danger onClick={markFailed} data-testid="make-ukey-mark-failed">
                  {t('ukeyMngMake.markFailed')}
                </Button>
              ) : null}
              {actions.includes('retry') ? (
                <Button type="primary" onClick={() => void retry()} data-testid="make-ukey-retry">
                  {t('ukeyMngMake.retry')}
                </Button>
              ) : null}
              <Button onClick={() => void navigate(`${MANAGE}?tab=apply`)} data-testid="make-ukey-back">
                {t('ukeyMngMake.back')}
              </Button>
            </Space>
          </div>
        )}
      </div>
    </div>
  );
}
