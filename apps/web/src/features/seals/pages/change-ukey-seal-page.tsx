import { contracts } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import type { PageProps } from '../../../lib/page';
import {
  UKEYS_KEY,
  updateBindingSeal,
  useBindSeals,
  useBoundUkey,
  useUkeyPermissionPoints,
} from '../api/ukeys';
import { UkeySealSelect } from '../components/ukey-seal-select';
import { CERT_STATUS_COLOUR, keyRowActions } from '../model/ukey-actions';

interface ChangeForm {
  ukeyName: string;
  sealCodes: string[];
}

const MANAGE = '/sealService/ukeyManage';

/**
 * /ChangeUkeySeal?ukeySn=…: a bound key's name and the seals it carries (POST updateBindingSeal). Only
 * keys bound on this platform, by someone who manages seals; authentication keys carry no seals.
 */
export function ChangeUkeySealPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const ukeySn = params.get('ukeySn')?.trim() || null;
  const key = useBoundUkey(ukeySn);
  const carried = useBindSeals(key.data ? ukeySn : null);
  const points = useUkeyPermissionPoints();
  const canManage = (points.data ?? []).includes('seal.manage');
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<ChangeForm>();
  const title = t(route.titleKey, { ns: 'route' });

  const shell = (body: ReactNode) => (
    <div className="os-page" data-testid="change-ukey-page">
      <BackHeader title={title} fallback={MANAGE} />
      <div className="os-card">{body}</div>
    </div>
  );
  if (!ukeySn) return shell(<Alert type="warning" showIcon message={t('ukeyMngChange.missingSn')} />);
  if (key.isPending || points.isPending || (key.data && carried.isPending)) return <PageLoading />;
  const k = key.data;
  if (!k || !keyRowActions(k, { manage: canManage }).includes('edit'))
    return shell(
      <Alert
        type="warning"
        showIcon
        message={!k ? t('ukeyMngChange.notBound') : t('ukeyMng.noPermission')}
        data-testid="change-ukey-refused"
      />,
    );

  const back = () => void navigate(`${MANAGE}?tab=${k.kind}`);
  const submit = async (v: ChangeForm) => {
    setBusy(true);
    try {
      await updateBindingSeal({
        ukeySn: k.ukeySn,
        ukeyName: v.ukeyName.trim(),
        sealCodes: k.kind === 'offline' ? v.sealCodes : [],
      });
      toastSuccess(t('ukeyMngChange.saved'));
      await queryClient.invalidateQueries({ queryKey: UKEYS_KEY });
      back();
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const date = (v: string) => new Date(v).toLocaleDateString(i18n.language);
  return shell(
    <div style={{ maxWidth: 760 }}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        bordered
        title={t('ukeyMngChange.current')}
        data-testid="change-ukey-current"
        items={[
          { key: 'sn', label: t('ukeyMng.col.serial'), children: k.ukeySn },
          { key: 'kind', label: t('ukeyMng.bindDialog.kind'), children: t(`ukeyMng.kind.${k.kind}`) },
          { key: 'holder', label: t('ukeyMng.col.holder'), children: k.holder ?? '—' },
          {
            key: 'cert',
            label: t('ukeyMng.col.certStatus'),
            children: (
              <Tag color={CERT_STATUS_COLOUR[k.certStatus]}>{t(`ukeyMng.certStatus.${k.certStatus}`)}</Tag>
            ),
          },
          {
            key: 'validity',
            label: t('ukeyMng.col.validity'),
            children: `${date(k.notBefore)} ~ ${date(k.notAfter)}`,
          },
          {
            key: 'seals',
            label: t('ukeyMng.col.seals'),
            children: (carried.data?.seals ?? []).length ? (
              <Space size={4} wrap>
                {(carried.data?.seals ?? []).map((s) => (
                  <Tag key={s.sealCode} color={s.usable ? 'red' : 'default'}>
                    {s.name ?? s.sealCode}
                    {s.usable ? '' : `（${t('ukeyMngChange.unusable')}）`}
                  </Tag>
                ))}
              </Space>
            ) : (
              t('ukeyMng.noSeals')
            ),
          },
        ]}
      />
      <Form
        form={form}
        layout="vertical"
        style={{ marginTop: 24 }}
        initialValues={{
          ukeyName: k.ukeyName,
          sealCodes: (carried.data?.seals ?? []).filter((s) => s.usable).map((s) => s.sealCode),
        }}
        onFinish={(v) => void submit(v)}
        data-testid="change-ukey-form"
      >
        <Form.Item
          name="ukeyName"
          label={t('ukeyMngChange.name')}
          required
          rules={[checkRule(contracts.checkUkeyName, language)]}
        >
          <Input
            maxLength={contracts.UKEY_LIMITS.nameMax}
            data-testid="change-ukey-name"
            style={{ maxWidth: 360 }}
          />
        </Form.Item>
        {k.kind === 'offline' ? (
          <Form.Item
            name="sealCodes"
            label={t('ukeyMngChange.seals')}
            extra={t('ukeyMng.bindDialog.sealsHint', { max: contracts.UKEY_LIMITS.maxSealsPerKey })}
            rules={[{ required: true, type: 'array', min: 1, message: t('ukeyMng.sealsRequired') }]}
          >
            <UkeySealSelect testId="change-ukey-seals" />
          </Form.Item>
        ) : (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('ukeyMngChange.onlineNoSeals')}
          />
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="change-ukey-save">
            {t('ukeyMngChange.save')}
          </Button>
          <Button onClick={back}>{t('ukeyMngChange.cancel')}</Button>
        </Space>
      </Form>
    </div>,
  );
}
