import { messageFor, LIMITS } from '@openseal/core';
import { Alert, Button, Form, Input } from 'antd';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/app-dialog';
import { isApiError } from '../../../lib/api-client';
import { handleApiError } from '../../../lib/api-error-handler';
import type { CreateOrgResponse } from '../../../lib/contracts';
import { normaliseLanguage } from '../../../lib/language';
import { createOrganization, isDuplicate } from '../api/spaces';
import {
  canSubmit,
  DUPLICATE_KEY,
  EMPTY_FORM,
  FIELD_OF_CODE,
  localCheck,
  normaliseUsccInput,
  onInput,
  type FieldName,
  type OrgFormState,
} from '../model/org-form';

const STATUS_VIEW = {
  idle: undefined,
  checking: 'validating',
  valid: 'success',
  invalid: 'error',
} as const;

export interface CreateOrgDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (result: CreateOrgResponse) => void;
}

/** Create organisation (spec sections 1, 5): name and credit code, checked on blur, trimmed on send. */
export function CreateOrgDialog({ open, onClose, onCreated }: CreateOrgDialogProps) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const [form, setForm] = useState<OrgFormState>(EMPTY_FORM);
  const [submitting, setSubmitting] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  // The latest value per field, so a slow duplicate check for an older value cannot win.
  const latest = useRef<Record<FieldName, string>>({ organizeName: '', uscc: '' });

  const reset = () => {
    setForm(EMPTY_FORM);
    setServerErrors({});
    latest.current = { organizeName: '', uscc: '' };
  };

  const change = (field: FieldName, raw: string) => {
    const value = field === 'uscc' ? normaliseUsccInput(raw) : raw;
    latest.current[field] = value;
    setForm((s) => onInput(s, field, value));
  };

  const check = async (field: FieldName) => {
    const { value, status: current } = form[field];
    // A verdict stands until the value changes; re-checking on every blur would briefly disable
    // confirm and swallow the click that caused the blur.
    if (current !== 'idle') return;
    const local = localCheck(field, value);
    if (!local.ok) {
      setForm((s) => ({ ...s, [field]: { value, status: 'invalid', errorKey: local.key } }));
      return;
    }
    setForm((s) => ({ ...s, [field]: { value, status: 'checking', errorKey: null } }));
    try {
      const exists = await isDuplicate(field, local.value);
      if (latest.current[field] !== value) return;
      setForm((s) => ({
        ...s,
        [field]: exists
          ? { value, status: 'invalid', errorKey: DUPLICATE_KEY[field] }
          : { value, status: 'valid', errorKey: null },
      }));
    } catch (error) {
      handleApiError(error);
      if (latest.current[field] !== value) return;
      // The check could not run: leave the field unconfirmed so confirm stays off until it passes.
      setForm((s) => ({ ...s, [field]: { value, status: 'idle', errorKey: null } }));
    }
  };

  const submit = async () => {
    if (!canSubmit(form)) return;
    setSubmitting(true);
    try {
      const result = await createOrganization({
        organizeName: form.organizeName.value.trim(),
        uscc: form.uscc.value.trim(),
      });
      reset();
      onCreated(result);
    } catch (error) {
      // Spec section 8: failed creation is swallowed; a field-specific answer still shows on its field.
      handleApiError(error);
      if (isApiError(error) && error.code !== null) {
        const field = FIELD_OF_CODE[error.code];
        if (field) {
          setForm((s) => ({
            ...s,
            [field]: { value: s[field].value, status: 'invalid', errorKey: null },
          }));
          setServerErrors((e) => ({ ...e, [field]: error.message }));
        }
      }
    } finally {
      setSubmitting(false);
    }
  };

  const help = (field: FieldName) => {
    const state = form[field];
    if (state.errorKey) return messageFor(state.errorKey, language);
    if (state.status === 'invalid') return serverErrors[field];
    return undefined;
  };
  const status = (field: FieldName) => STATUS_VIEW[form[field].status];

  const fieldProps = (field: FieldName) => ({
    value: form[field].value,
    allowClear: true,
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      setServerErrors((s) => ({ ...s, [field]: undefined }));
      change(field, e.target.value);
    },
    onBlur: () => void check(field),
  });

  return (
    <AppDialog
      open={open}
      title={t('createOrg.title')}
      onCancel={() => {
        reset();
        onClose();
      }}
      mask={{ closable: false }}
      footer={[
        <Button
          key="cancel"
          onClick={() => {
            reset();
            onClose();
          }}
          data-testid="create-org-cancel"
        >
          {t('common.cancel')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          disabled={!canSubmit(form)}
          loading={submitting}
          onClick={() => void submit()}
          data-testid="create-org-confirm"
        >
          {t('common.confirm')}
        </Button>,
      ]}
    >
      <Form layout="vertical" requiredMark className="os-create-org" data-testid="create-org-form">
        <Form.Item
          label={t('createOrg.nameLabel')}
          required
          hasFeedback
          validateStatus={status('organizeName')}
          help={help('organizeName')}
        >
          <Input
            {...fieldProps('organizeName')}
            maxLength={LIMITS.orgNameMax}
            placeholder={t('createOrg.namePlaceholder')}
            data-testid="create-org-name"
          />
        </Form.Item>
        <Form.Item
          label={t('createOrg.usccLabel')}
          required
          hasFeedback
          validateStatus={status('uscc')}
          help={help('uscc')}
        >
          <Input
            {...fieldProps('uscc')}
            maxLength={LIMITS.usccLength}
            placeholder={t('createOrg.usccPlaceholder')}
            data-testid="create-org-uscc"
          />
        </Form.Item>
        <Alert type="info" showIcon title={t('createOrg.hint')} />
      </Form>
    </AppDialog>
  );
}
