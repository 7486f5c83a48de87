import { checkMobile, checkSmsCode } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Radio, Result, Steps, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { useCountdown } from '../../../hooks/use-countdown';
import { SESSION_QUERY_PREFIX, useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import type { PageProps } from '../../../lib/page';
import {
  sendNewHolderCode,
  sendOldHolderCode,
  useHolders,
  usePermissions,
  verifyNewHolderCode,
  verifyOldHolderCode,
  type HolderRole,
  type RoleChangeSent,
} from '../api/members';
import { CodeInput } from '../components/code-input';
import { OrgOnlyNotice } from '../components/org-only';
import { isHolderRole } from '../model/roles';

type Step = 0 | 1 | 2;

/**
 * /userCenter/infoModifyLegal: change the super administrator or the legal representative. The current
 * holder confirms with an SMS code (adminModify), then the new holder, an active member, with theirs
 * (newAdmin); the role moves when both codes are right.
 */
export function InfoModifyLegalPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  const permissions = usePermissions();
  const holders = useHolders(inOrg);
  const [changeType, setChangeType] = useState<HolderRole>(
    params.get('type') === 'legalPerson' ? 'legalPerson' : 'superAdmin',
  );
  const [step, setStep] = useState<Step>(0);
  const [oldSent, setOldSent] = useState<RoleChangeSent | null>(null);
  const [newSent, setNewSent] = useState<RoleChangeSent | null>(null);
  const [oldCountdown, startOld] = useCountdown();
  const [newCountdown, startNew] = useCountdown();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [oldForm] = Form.useForm<{ code: string }>();
  const [newForm] = Form.useForm<{ mobile: string; code: string }>();

  if (!account.data || (inOrg && (permissions.isPending || holders.isPending))) return <PageLoading />;
  const title = t(route.titleKey, { ns: 'route' });
  const mayChange = (permissions.data?.roles ?? []).some((r) => isHolderRole(r.code));
  const current = changeType === 'superAdmin' ? holders.data?.superAdmin : holders.data?.legalPerson;

  const guarded = async (action: () => Promise<void>, setBusy: (b: boolean) => void) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const sendOld = () =>
    guarded(async () => {
      const sent = await sendOldHolderCode(changeType);
      setOldSent(sent);
      startOld(sent.resendAfterSeconds);
    }, setSending);

  const verifyOld = (values: { code: string }) =>
    guarded(async () => {
      if (!oldSent) return;
      await verifyOldHolderCode(oldSent.changeNo, values.code.trim());
      setStep(1);
    }, setSubmitting);

  const sendNew = async () => {
    if (!oldSent) return;
    try {
      await newForm.validateFields(['mobile']);
    } catch {
      return;
    }
    await guarded(async () => {
      const sent = await sendNewHolderCode(oldSent.changeNo, newForm.getFieldValue('mobile').trim());
      setNewSent(sent);
      startNew(sent.resendAfterSeconds);
    }, setSending);
  };

  const verifyNew = (values: { code: string }) =>
    guarded(async () => {
      if (!oldSent) return;
      await verifyNewHolderCode(oldSent.changeNo, values.code.trim());
      // The holders and the caller's own roles changed: the result shows them as they are now.
      await queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_PREFIX] });
      setStep(2);
    }, setSubmitting);

  const sandboxNote = (sent: RoleChangeSent | null) =>
    sent ? (
      <Alert
        type={sent.sandbox ? 'warning' : 'info'}
        showIcon
        style={{ marginBottom: 16 }}
        data-testid={sent.sandbox ? 'holder-sandbox-notice' : 'holder-sent-notice'}
        title={
          <>
            {sent.sandbox ? <Tag color="orange">{t('members.sandbox')}</Tag> : null}
            {t('members.codeSentTo', { mobile: sent.mobile })}
            {sent.sandbox ? ` ${t('members.sandboxHint')}` : ''}
          </>
        }
      />
    ) : null;

  const holderLabel = (role: HolderRole) => t(`members.holder.${role}`);

  return (
    <div className="os-page" data-testid="holder-change-page">
      <BackHeader title={title} fallback="/userCenter/infoMemberList" />
      <div className="os-card os-card--form">
        {!inOrg ? (
          <OrgOnlyNotice />
        ) : !mayChange && step !== 2 ? (
          <Alert type="warning" showIcon title={t('members.holderOnly')} data-testid="holder-only" />
        ) : (
          <>
            <Steps
              current={step}
              size="small"
              style={{ marginBottom: 24 }}
              items={[
                { title: t('members.stepOld') },
                { title: t('members.stepNew') },
                { title: t('members.stepDone') },
              ]}
            />
            {step === 0 ? (
              <>
                <Form layout="vertical">
                  <Form.Item label={t('members.changeType')}>
                    <Radio.Group
                      value={changeType}
                      disabled={oldSent !== null}
                      onChange={(e) => setChangeType(e.target.value as HolderRole)}
                      data-testid="holder-type"
                    >
                      <Radio value="superAdmin" data-testid="holder-type-superAdmin">
                        {holderLabel('superAdmin')}
                      </Radio>
                      <Radio value="legalPerson" data-testid="holder-type-legalPerson">
                        {holderLabel('legalPerson')}
                      </Radio>
                    </Radio.Group>
                  </Form.Item>
                </Form>
                <Descriptions column={1} bordered size="small" style={{ marginBottom: 16 }}>
                  <Descriptions.Item label={t('members.currentHolder', { role: holderLabel(changeType) })}>
                    <span data-testid="holder-current">
                      {current ? `${current.name || '—'} ${current.mobile}` : t('members.noHolder')}
                    </span>
                  </Descriptions.Item>
                </Descriptions>
                {sandboxNote(oldSent)}
                <Form form={oldForm} layout="vertical" onFinish={(v) => void verifyOld(v)}>
                  <Form.Item
                    name="code"
                    label={t('members.oldHolderCode')}
                    extra={current ? undefined : t('members.noHolderHint')}
                    required
                    rules={[checkRule(checkSmsCode, language)]}
                  >
                    <CodeInput
                      onSend={() => void sendOld()}
                      sending={sending}
                      countdown={oldCountdown}
                      sent={oldSent !== null}
                      testId="holder-old"
                    />
                  </Form.Item>
                  <Button
                    type="primary"
                    htmlType="submit"
                    loading={submitting}
                    disabled={!oldSent}
                    data-testid="holder-old-next"
                  >
                    {t('members.next')}
                  </Button>
                </Form>
              </>
            ) : null}
            {step === 1 ? (
              <>
                {sandboxNote(newSent)}
                <Form form={newForm} layout="vertical" onFinish={(v) => void verifyNew(v)}>
                  <Form.Item
                    name="mobile"
                    label={t('members.newHolderMobile', { role: holderLabel(changeType) })}
                    extra={t('members.newHolderHint')}
                    required
                    rules={[checkRule(checkMobile, language)]}
                  >
                    <Input maxLength={11} inputMode="numeric" data-testid="holder-new-mobile" />
                  </Form.Item>
                  <Form.Item
                    name="code"
                    label={t('members.newHolderCode')}
                    required
                    rules={[checkRule(checkSmsCode, language)]}
                  >
                    <CodeInput
                      onSend={() => void sendNew()}
                      sending={sending}
                      countdown={newCountdown}
                      sent={newSent !== null}
                      testId="holder-new"
                    />
                  </Form.Item>
                  <Button
                    type="primary"
                    htmlType="submit"
                    loading={submitting}
                    disabled={!newSent}
                    data-testid="holder-new-submit"
                  >
                    {t('common.confirm')}
                  </Button>
                </Form>
              </>
            ) : null}
            {step === 2 ? (
              // Shown even when the caller gave up their own seat and may no longer start a change.
              <Result
                status="success"
                title={t('members.changeDone', { role: holderLabel(changeType) })}
                data-testid="holder-done"
                subTitle={
                  current ? (
                    <span data-testid="holder-new-current">
                      {t('holderResult.newHolder', {
                        role: holderLabel(changeType),
                        holder: `${current.name || '—'} ${current.mobile}`,
                      })}
                    </span>
                  ) : null
                }
                extra={
                  <Button type="primary" onClick={() => void navigate('/userCenter/infoMemberList')}>
                    {t('members.backToMembers')}
                  </Button>
                }
              />
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
