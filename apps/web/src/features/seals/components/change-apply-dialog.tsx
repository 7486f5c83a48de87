import { contracts } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/app-dialog';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import {
  applySealChange,
  discardSealImage,
  handPaintedSealChange,
  personSealChange,
  tempHandPaintedPic,
  uploadSealImage,
  useChangeCustomKinds,
  type SealChange,
} from '../api/changes';
import { SEALS_KEY, useSealKinds, type SealDetail } from '../api/seals';
import { changeStyleChoice } from '../model/change-records';
import { changeTypeOf } from '../model/manage-seals';
import { HandDrawnPad } from './hand-drawn-pad';
import { ManageSealImage } from './manage-seal-drawer';

interface OrdinaryValues {
  sealType: contracts.SealDrawType;
  title?: string;
  title0?: string;
  securityLines: boolean;
  reason?: string;
}

/**
 * The change application of one seal (spec section 7, Seal changes): an organisation's seal is redrawn
 * with the organisation's current name, optionally in another style or title; a personal name seal with
 * the person's current name; a hand-drawn seal with a new drawing uploaded as a transparent PNG.
 */
export function ChangeApplyDialog({
  seal,
  onClose,
  onSubmitted,
}: {
  seal: SealDetail | null;
  onClose: () => void;
  onSubmitted: (change: SealChange) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<OrdinaryValues>();
  const [busy, setBusy] = useState(false);
  const [drawing, setDrawing] = useState<{ fileKey: string; preview: string; same: boolean } | null>(null);
  const type = seal ? changeTypeOf(seal.sealKind) : 'ordinary';
  const info = seal ? contracts.SEAL_KIND_INFO[seal.sealKind] : null;
  // Standard kinds offer the space's seal kinds' types; custom kinds those of the custom configuration.
  const kinds = useSealKinds();
  const customKinds = useChangeCustomKinds(seal !== null && type === 'ordinary' && Boolean(info?.custom));
  const choice = seal ? changeStyleChoice(seal, kinds.data, customKinds.data) : null;
  const typesError = info?.custom ? customKinds.error : kinds.error;
  const chosenType = Form.useWatch('sealType', form) ?? seal?.sealType;

  // Start from the current type, or the first allowed one once the allowed types are known.
  // A type the person picked that is allowed is never replaced (the allowed list may arrive or refresh later).
  const initialType = choice?.initial;
  const allowedTypes = (choice?.options ?? []).filter((o) => o.allowed).map((o) => o.value);
  const allowedKey = allowedTypes.join(',');
  useEffect(() => {
    if (initialType === undefined) return;
    const current = form.getFieldValue('sealType') as contracts.SealDrawType | undefined;
    const keep =
      form.isFieldTouched('sealType') &&
      current !== undefined &&
      allowedKey.split(',').includes(String(current));
    if (!keep) form.setFieldValue('sealType', initialType);
  }, [form, initialType, allowedKey, seal?.sealCode]);

  /** A drawing not submitted is discarded on the server (its upload is used by nothing). */
  const dropDrawing = () => {
    if (drawing) void discardSealImage(drawing.fileKey).catch(() => undefined);
    setDrawing(null);
  };

  const close = () => {
    dropDrawing();
    form.resetFields();
    onClose();
  };

  const done = async (change: SealChange) => {
    toastSuccess(t('sealChange.apply.success'));
    await queryClient.invalidateQueries({ queryKey: SEALS_KEY });
    setDrawing(null);
    form.resetFields();
    onSubmitted(change);
  };

  const submit = async () => {
    if (!seal) return;
    let values: OrdinaryValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const reason = values.reason?.trim() ?? '';
    setBusy(true);
    try {
      if (type === 'ordinary') {
        await done(
          await applySealChange({
            sealCode: seal.sealCode,
            sealType: values.sealType,
            ...(info?.custom && values.title?.trim() ? { title: values.title.trim() } : {}),
            ...(values.sealType === 4 && values.title0?.trim() ? { title0: values.title0.trim() } : {}),
            ...(values.securityLines ? { securityLines: true } : {}),
            reason,
          }),
        );
      } else if (type === 'personal') {
        await done(await personSealChange(seal.sealCode, reason));
      } else if (drawing) {
        await done(await handPaintedSealChange(seal.sealCode, drawing.fileKey, reason));
      }
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const acceptDrawing = async (png: Blob) => {
    if (!seal) return;
    setBusy(true);
    try {
      const uploaded = await uploadSealImage(png);
      // Shown as the seal will have it: fitted to the seal's size by the server, not stored.
      const fitted = await tempHandPaintedPic(seal.sealCode, uploaded.fileKey).catch((error: unknown) => {
        void discardSealImage(uploaded.fileKey).catch(() => undefined);
        throw error;
      });
      setDrawing({ fileKey: uploaded.fileKey, preview: fitted.image, same: fitted.sameAsCurrent });
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const canSubmit =
    type === 'handPainted'
      ? drawing !== null && !drawing.same
      : type !== 'ordinary' || choice?.ready === true;

  return (
    <AppDialog
      open={seal !== null}
      width={type === 'handPainted' ? 600 : 560}
      title={seal ? `${t('sealChange.apply.title')} · ${t(`sealChange.type.${type}`)}` : ''}
      onCancel={close}
      footer={[
        <Button key="cancel" onClick={close} data-testid="change-apply-cancel">
          {t('sealChange.apply.cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={busy}
          disabled={!canSubmit}
          onClick={() => void submit()}
          data-testid="change-apply-submit"
        >
          {t('sealChange.apply.submit')}
        </Button>,
      ]}
    >
      {seal ? (
        <div data-testid="change-apply-dialog" data-change-type={type}>
          <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginBottom: 16 }}>
            <ManageSealImage seal={seal} size={96} />
            <div>
              <Typography.Text type="secondary">{t('sealChange.apply.current')}</Typography.Text>
              <div style={{ fontWeight: 600, marginTop: 4 }}>{seal.name}</div>
              <div style={{ color: 'var(--os-text-2)', marginTop: 2 }}>
                {t(`sealCommon.drawType.${seal.sealType}`)}
              </div>
            </div>
          </div>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t(`sealChange.apply.${type}Hint`)}
          />
          <Form<OrdinaryValues>
            form={form}
            layout="vertical"
            initialValues={{
              sealType: seal.sealType,
              securityLines: false,
              reason: '',
            }}
          >
            {type === 'ordinary' ? (
              <>
                {typesError ? (
                  <Alert
                    type="error"
                    showIcon
                    style={{ marginBottom: 16 }}
                    data-testid="change-apply-types-error"
                    title={typesError.message}
                  />
                ) : null}
                <Form.Item
                  name="sealType"
                  label={t('sealChange.apply.sealType')}
                  rules={[
                    {
                      validator: (_, v: contracts.SealDrawType | undefined) =>
                        v === undefined || choice?.options.find((o) => o.value === v)?.allowed !== false
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('sealChange.apply.typeNotOffered'))),
                    },
                  ]}
                >
                  <Select
                    data-testid="change-apply-seal-type"
                    data-source={choice?.source}
                    data-ready={choice?.ready ? 'true' : 'false'}
                    loading={!choice?.ready && !typesError}
                    options={(choice?.options ?? []).map((o) => ({
                      value: o.value,
                      disabled: !o.allowed,
                      label: (
                        <span data-testid="change-apply-seal-type-option" data-value={o.value}>
                          {t(`sealCommon.drawType.${o.value}`)}
                          {o.allowed ? '' : t('sealChange.apply.typeNotOfferedSuffix')}
                        </span>
                      ),
                    }))}
                  />
                </Form.Item>
                {info?.custom ? (
                  <Form.Item
                    name="title"
                    label={t('sealChange.apply.title1')}
                    extra={t('sealChange.apply.keepCurrent')}
                  >
                    <Input
                      maxLength={choice?.titleMaxLength ?? 40}
                      showCount={choice?.titleMaxLength !== null}
                      data-testid="change-apply-title"
                    />
                  </Form.Item>
                ) : null}
                {chosenType === 4 ? (
                  <Form.Item
                    name="title0"
                    label={t('sealChange.apply.title0')}
                    extra={t('sealChange.apply.keepCurrent')}
                  >
                    <Input maxLength={choice?.titleMaxLength ?? 40} data-testid="change-apply-title0" />
                  </Form.Item>
                ) : null}
                <Form.Item
                  name="securityLines"
                  label={t('sealChange.apply.securityLines')}
                  valuePropName="checked"
                >
                  <Checkbox data-testid="change-apply-security-lines">
                    {t('sealChange.apply.securityLinesOn')}
                  </Checkbox>
                </Form.Item>
              </>
            ) : null}
            {type === 'handPainted' ? (
              <div style={{ marginBottom: 16 }}>
                {drawing ? (
                  <Space orientation="vertical">
                    {drawing.same ? (
                      <Alert type="warning" showIcon title={t('sealChange.apply.sameDrawing')} />
                    ) : (
                      <Alert type="success" showIcon title={t('sealChange.apply.drawn')} />
                    )}
                    <img
                      src={drawing.preview}
                      alt=""
                      data-testid="change-apply-drawing"
                      style={{ maxWidth: 240, maxHeight: 160, border: '1px dashed #d9d9d9' }}
                    />
                    <Button size="small" onClick={dropDrawing}>
                      {t('sealChange.apply.redraw')}
                    </Button>
                  </Space>
                ) : (
                  <>
                    <HandDrawnPad width={540} height={220} onConfirm={(png) => void acceptDrawing(png)} />
                    <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
                      {t('sealChange.apply.drawFirst')}
                    </Typography.Text>
                  </>
                )}
              </div>
            ) : null}
            <Form.Item name="reason" label={t('sealChange.apply.reason')} style={{ marginBottom: 0 }}>
              <Input.TextArea
                rows={3}
                maxLength={200}
                showCount
                placeholder={t('sealChange.apply.reasonPlaceholder')}
                data-testid="change-apply-reason"
              />
            </Form.Item>
          </Form>
        </div>
      ) : null}
    </AppDialog>
  );
}
