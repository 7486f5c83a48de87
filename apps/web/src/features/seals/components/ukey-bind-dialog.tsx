import { contracts, messageFor } from '@openseal/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Form, Input, Radio, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/app-dialog';
import { isApiError } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import { isAgentError, ukeyAgent, type ExpectedHolder } from '../api/ukey-agent';
import { bindUkey, fetchChallenge, UKEYS_KEY, type BoundUkey, type UkeyKind } from '../api/ukeys';
import { describeUkeyError, pinError, type UkeyProblem } from '../model/ukey-problems';
import { UkeyKeyPicker, useAgentKeys } from './ukey-key-picker';
import { UkeyProblemAlert } from './ukey-problem-alert';
import { UkeySealSelect } from './ukey-seal-select';

interface BindForm {
  ukeyName: string;
  kind: UkeyKind;
  sealCodes: string[];
  pin: string;
}

/** Any failure of the bind flow as a UKey problem: the agent's, the server's, or a dropped connection. */
export function problemOf(error: unknown): UkeyProblem {
  if (isAgentError(error)) return describeUkeyError(error);
  if (isApiError(error))
    return describeUkeyError({ kind: 'api', code: error.code, message: error.message, data: error.data });
  return describeUkeyError({ kind: 'api', code: null, message: String(error) });
}

/**
 * Binding a UKey (spec sections 5-7): the agent detects the key (one, or the user picks among several),
 * reads its seal certificate for the logged-in organisation, checks the PIN (attempts left on a wrong
 * one), signs the server's one-time challenge, and the server binds it (POST /v1/sealUKeyBinding/binding).
 */
export function UkeyBindDialog({
  open,
  defaultKind,
  holder,
  boundSerials,
  onClose,
  onBound,
}: {
  open: boolean;
  defaultKind: UkeyKind;
  /** The logged-in organisation, so the agent refuses another holder's key before any PIN is spent. */
  holder: ExpectedHolder | undefined;
  boundSerials: string[];
  onClose: () => void;
  onBound: (key: BoundUkey) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const [form] = Form.useForm<BindForm>();
  const keys = useAgentKeys(open);
  const [serial, setSerial] = useState<string | null>(null);
  const [problem, setProblem] = useState<UkeyProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = Form.useWatch('kind', form) ?? defaultKind;

  // One key: chosen at once. A chosen key that went away: forgotten.
  useEffect(() => {
    const list = keys.data ?? [];
    if (serial && !list.some((k) => k.serial === serial)) setSerial(null);
    if (!serial && list.length === 1 && !list[0]!.locked) setSerial(list[0]!.serial);
  }, [keys.data, serial]);

  const chosen = keys.data?.find((k) => k.serial === serial) ?? null;
  const certs = useQuery({
    queryKey: [...UKEYS_KEY, 'agent', 'certs', serial, holder?.uscc ?? null],
    queryFn: () => ukeyAgent.readCertificates(serial!, holder),
    enabled: open && serial !== null,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const sealCert = certs.data?.certificates.find((c) => c.isSealCertificate) ?? null;
  const certProblem: UkeyProblem | null = certs.error
    ? problemOf(certs.error)
    : certs.data && !sealCert
      ? describeUkeyError({ kind: 'api', code: 7006, message: '' })
      : null;
  const lockedProblem: UkeyProblem | null = chosen?.locked
    ? describeUkeyError({ kind: 'api', code: 7005, message: messageFor('ukey.locked', language) })
    : null;
  // A key detected as locked says so once; the failed attempt that locked it need not say it again.
  const shownProblem = problem?.kind === 'locked' && lockedProblem ? null : problem;

  useEffect(() => {
    if (open) setProblem(null);
  }, [open]);
  const defaultName = chosen && contracts.checkUkeyName(chosen.label.trim()).ok ? chosen.label.trim() : '';

  const submit = async (values: BindForm) => {
    if (!chosen || !sealCert) return;
    setBusy(true);
    setProblem(null);
    try {
      // The PIN first, so a wrong one says how many attempts are left before anything else happens.
      await ukeyAgent.verifyPin(chosen.serial, values.pin);
      const challenge = await fetchChallenge(chosen.serial);
      const signed = await ukeyAgent.signText(chosen.serial, values.pin, challenge.challenge, holder);
      const bound = await bindUkey({
        ukeySn: chosen.serial,
        ukeyName: values.ukeyName.trim(),
        certificate: sealCert.pem,
        kind: values.kind,
        ...(values.kind === 'offline' ? { sealCodes: values.sealCodes ?? [] } : {}),
        challengeId: challenge.challengeId,
        signature: signed.signature,
      });
      toastSuccess(t('ukeyMng.bindDialog.bound'));
      form.resetFields();
      onBound(bound);
    } catch (error) {
      setProblem(problemOf(error));
      form.setFieldValue('pin', '');
      // The key's PIN state (attempts left, locked) changed: show it.
      void keys.refetch();
    } finally {
      setBusy(false);
    }
  };

  const ready = chosen !== null && sealCert !== null && !lockedProblem;
  return (
    <AppDialog
      open={open}
      width={640}
      title={t('ukeyMng.bindDialog.title')}
      okText={t('ukeyMng.bindDialog.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ disabled: !ready, 'data-testid': 'ukey-bind-confirm' }}
      cancelButtonProps={{ 'data-testid': 'ukey-bind-cancel' }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <div data-testid="ukey-bind-dialog">
        <div style={{ marginBottom: 8, fontWeight: 500 }}>{t('ukeyMng.bindDialog.detected')}</div>
        <UkeyKeyPicker keys={keys} value={serial} onChange={setSerial} boundSerials={boundSerials} />
        {lockedProblem ? (
          <div style={{ marginTop: 12 }}>
            <UkeyProblemAlert problem={lockedProblem} testId="ukey-bind-locked" />
          </div>
        ) : null}
        {serial && certs.isFetching ? (
          <div style={{ marginTop: 12 }}>
            <Spin size="small" /> {t('ukeyMng.bindDialog.readingCert')}
          </div>
        ) : null}
        {certProblem && !certs.isFetching ? (
          <div style={{ marginTop: 12 }}>
            <UkeyProblemAlert problem={certProblem} testId="ukey-cert-problem" />
          </div>
        ) : null}
        {sealCert?.summary ? (
          <Descriptions
            size="small"
            column={1}
            bordered
            style={{ marginTop: 12 }}
            title={t('ukeyMng.bindDialog.cert')}
            styles={{ label: { whiteSpace: 'nowrap' } }}
            data-testid="ukey-bind-cert"
            items={[
              { key: 's', label: t('ukeyMng.bindDialog.subject'), children: sealCert.summary.subject },
              { key: 'i', label: t('ukeyMng.col.issuer'), children: sealCert.summary.issuer },
              { key: 'n', label: t('ukeyMng.col.certSerial'), children: sealCert.summary.serial },
              {
                key: 'v',
                label: t('ukeyMng.col.validity'),
                children: `${new Date(sealCert.summary.notBefore).toLocaleDateString(language)} ~ ${new Date(sealCert.summary.notAfter).toLocaleDateString(language)}`,
              },
            ]}
          />
        ) : null}
        {shownProblem ? (
          <div style={{ marginTop: 12 }}>
            <UkeyProblemAlert
              problem={shownProblem}
              testId="ukey-bind-error"
              onRedetect={() => {
                setProblem(null);
                void keys.refetch();
              }}
            />
          </div>
        ) : null}
        {ready ? (
          <Form
            form={form}
            layout="vertical"
            style={{ marginTop: 16 }}
            initialValues={{ kind: defaultKind, sealCodes: [], pin: '', ukeyName: defaultName }}
            onFinish={(v) => void submit(v)}
            data-testid="ukey-bind-form"
          >
            <Form.Item
              name="ukeyName"
              label={t('ukeyMng.bindDialog.name')}
              required
              rules={[checkRule(contracts.checkUkeyName, language)]}
            >
              <Input
                maxLength={contracts.UKEY_LIMITS.nameMax}
                placeholder={t('ukeyMng.bindDialog.namePlaceholder')}
                data-testid="ukey-bind-name"
              />
            </Form.Item>
            <Form.Item name="kind" label={t('ukeyMng.bindDialog.kind')}>
              <Radio.Group data-testid="ukey-bind-kind">
                <Radio value="offline" data-testid="ukey-bind-kind-offline">
                  {t('ukeyMng.kind.offline')}
                </Radio>
                <Radio value="online" data-testid="ukey-bind-kind-online">
                  {t('ukeyMng.kind.online')}
                </Radio>
              </Radio.Group>
            </Form.Item>
            {kind === 'offline' ? (
              <Form.Item
                name="sealCodes"
                label={t('ukeyMng.bindDialog.seals')}
                extra={t('ukeyMng.bindDialog.sealsHint', { max: contracts.UKEY_LIMITS.maxSealsPerKey })}
                rules={[{ required: true, type: 'array', min: 1, message: t('ukeyMng.sealsRequired') }]}
              >
                <UkeySealSelect enabled={open} testId="ukey-bind-seals" />
              </Form.Item>
            ) : null}
            <Form.Item
              name="pin"
              label={t('ukeyMng.bindDialog.pin')}
              required
              rules={[
                {
                  validator: async (_, v: string | undefined) => {
                    const e = pinError(v, contracts.UKEY_LIMITS);
                    if (e === 'required') throw new Error(t('ukeyMng.bindDialog.pinRequired'));
                    if (e === 'length')
                      throw new Error(
                        t('ukeyMng.bindDialog.pinLength', {
                          min: contracts.UKEY_LIMITS.pinMin,
                          max: contracts.UKEY_LIMITS.pinMax,
                        }),
                      );
                  },
                },
              ]}
            >
              <Input.Password
                autoComplete="off"
                maxLength={contracts.UKEY_LIMITS.pinMax}
                placeholder={t('ukeyMng.bindDialog.pinPlaceholder')}
                data-testid="ukey-bind-pin"
              />
            </Form.Item>
            <div style={{ color: 'var(--os-text-2)', fontSize: 13 }}>{t('ukeyMng.bindDialog.agreement')}</div>
          </Form>
        ) : null}
        {busy ? (
          <Alert style={{ marginTop: 12 }} type="info" showIcon message={t('ukeyMng.bindDialog.working')} />
        ) : null}
      </div>
    </AppDialog>
  );
}
