import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Result, Spin, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { WarningDialog } from '../../../components/warning-dialog';
import { SESSION_QUERY_PREFIX } from '../../../hooks/use-session';
import { useSceneValues } from '../../../hooks/use-system-config';
import { isApiError, type ApiError } from '../../../lib/api-client';
import { handleApiError } from '../../../lib/api-error-handler';
import { messageOf } from '../../../lib/api-error-reaction';
import { toastSuccess, toastWarning } from '../../../lib/feedback';
import { normaliseLanguage } from '../../../lib/language';
import type { PageProps } from '../../../lib/page';
import { storeAccessToken } from '../../../lib/session';
import { parseSystemConfig } from '../../../lib/system-config';
import { useSsoResult, type SsoResult } from '../api/sso';
import { SsoBindMobile } from '../components/sso-bind-mobile';
import { SsoChooseOrg } from '../components/sso-choose-org';
import { decideSsoStep, loginExceptionOf, nextPathAfterSso, type SsoDialog } from '../model/sso-outcome';

const PANEL = { gridTemplateColumns: '1fr', maxWidth: 480, minHeight: 0 } as const;

/**
 * Where the provider's callback returns the browser (`?flowId=`): reads the flow's result once and acts
 * on its operateType (spec section 4) or on 315 (section 8), then continues to /selectSpace, the saved
 * address or home.
 */
export function SsoResultPage(_props: PageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const flowId = params.get('flowId');
  const redirect = params.get('redirect');
  const query = useSsoResult(flowId);
  const scene = useSceneValues('HOME');
  // The answers of the steps after the first result (mobile bound, organisation chosen).
  const [answer, setAnswer] = useState<SsoResult | null>(null);
  const [exception, setException] = useState<{ text: string | null } | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const loggedIn = useRef(false);

  const result = answer ?? query.data ?? null;
  const step = result ? decideSsoStep(result) : null;

  const onFailure = useCallback((error: unknown) => {
    const loginException = isApiError(error) ? loginExceptionOf(error) : null;
    if (loginException) setException(loginException);
    // Silent requests (the waiting step's info) have no toast to fall back on: the page shows them.
    else if (isApiError(error) && error.flags.silent) setFailure(error);
    else handleApiError(error);
  }, []);

  useEffect(() => {
    if (query.error) onFailure(query.error);
  }, [query.error, onFailure]);

  const configValues = scene.data;
  useEffect(() => {
    if (!result || step?.kind !== 'login' || !configValues || loggedIn.current) return;
    // The token is answered once; the guard keeps a re-run effect from toasting and navigating twice.
    loggedIn.current = true;
    queryClient.removeQueries({ queryKey: [SESSION_QUERY_PREFIX] });
    storeAccessToken(step.token);
    if (step.notice?.level === 'warning') toastWarning(step.notice.text ?? t('sso.success'));
    else toastSuccess(step.notice?.text ?? t('sso.success'));
    const config = parseSystemConfig(configValues);
    const next = nextPathAfterSso({
      loginType: result.loginType,
      identityType: result.identityType,
      personOrgSwitch: config.personOrgSwitch,
      personSsoSpace: config.personSsoSpace,
      redirect,
    });
    void navigate(next, { replace: true });
  }, [result, step, configValues, queryClient, navigate, redirect, t]);

  const backToLogin = () =>
    void navigate(redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login', { replace: true });

  const dialog: { kind: SsoDialog; text: string | null } | null = exception
    ? { kind: 'loginException', text: exception.text }
    : step?.kind === 'dialog'
      ? { kind: step.dialog, text: step.text }
      : null;

  let body;
  if (!flowId) {
    body = (
      <Result
        status="warning"
        title={t('sso.missingFlowTitle')}
        subTitle={t('sso.missingFlowText')}
        extra={<Button onClick={backToLogin}>{t('sso.backToLogin')}</Button>}
        data-testid="sso-result-missing"
      />
    );
  } else if (failure) {
    body = (
      <Result
        status="error"
        title={t('sso.failedTitle')}
        subTitle={
          <span data-testid="sso-result-error">{messageOf(failure, normaliseLanguage(i18n.language))}</span>
        }
        extra={
          <Button type="primary" onClick={backToLogin} data-testid="sso-result-back">
            {t('sso.backToLogin')}
          </Button>
        }
      />
    );
  } else if (dialog) {
    body = <Result status="warning" title={t('sso.failedTitle')} />;
  } else if (step?.kind === 'bindMobile') {
    body = <SsoBindMobile flowId={flowId} onAnswer={setAnswer} onFailure={onFailure} />;
  } else if (step?.kind === 'chooseOrg' && result) {
    body = (
      <SsoChooseOrg
        flowId={flowId}
        organizes={result.ownOrganizes}
        onAnswer={setAnswer}
        onFailure={onFailure}
      />
    );
  } else {
    body = (
      <div className="os-page-loading">
        <Spin size="large" />
        <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
          {t('sso.processing')}
        </Typography.Text>
      </div>
    );
  }

  return (
    <div
      className="os-login"
      data-testid="sso-result-page"
      data-step={dialog ? 'dialog' : (step?.kind ?? '')}
    >
      <div className="os-login__panel" style={PANEL}>
        <Card className="os-login__card" variant="borderless">
          {body}
        </Card>
      </div>
      <WarningDialog
        open={dialog !== null}
        testId="sso-dialog"
        title={
          <span data-testid="sso-dialog-title" data-kind={dialog?.kind}>
            {dialog?.kind === 'notInEnterprise'
              ? t('sso.notInEnterpriseTitle')
              : t('sso.loginExceptionTitle')}
          </span>
        }
        content={
          <>
            <div data-testid="sso-dialog-text">
              {dialog?.text ??
                (dialog?.kind === 'notInEnterprise'
                  ? t('sso.notInEnterpriseDefault')
                  : t('sso.loginExceptionDefault'))}
            </div>
            {dialog?.kind === 'notInEnterprise' && result?.orgName ? (
              <div>{t('sso.notInEnterpriseOrg', { name: result.orgName })}</div>
            ) : null}
          </>
        }
        showCancel={false}
        confirmText={t('sso.backToLogin')}
        onConfirm={backToLogin}
      />
    </div>
  );
}
