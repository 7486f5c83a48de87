import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Descriptions,
  Form,
  InputNumber,
  Radio,
  Result,
  Select,
  Space,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { useAccountInfo } from '../../../hooks/use-session';
import { isApiError } from '../../../lib/api-client';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess, toastWarning } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import {
  addSealAuth,
  editSealAuth,
  SEAL_AUTH_KEY,
  useAuthorisePermission,
  useGranteeMembers,
  useSealAuthDetail,
  type SealAuthorization,
} from '../api/authorize';
import { useMySeals, type Seal } from '../api/seals';
import { GranteeCell, SealCell, SealThumb, UsesCell, useSealImages } from '../components/authorize-parts';
import { StatusTag } from '../components/status-tag';
import {
  AUTHORIZE_MNG_PATH,
  authorizeDetailPath,
  formFromAuthorization,
  MAX_USES,
  startOfDay,
  toAddRequest,
  toEditRequest,
  validateAuthorizeForm,
  type AuthorizeFormValues,
  type FormProblem,
  type UsesMode,
  type ValidityMode,
} from '../model/authorize-form';

/** The form's own shape: dates as antd's day objects. */
interface FormShape {
  sealCode?: string;
  memberIds: string[];
  appIds: string[];
  usesMode: UsesMode;
  usesLimit?: number | null;
  validityMode: ValidityMode;
  range?: [Dayjs | null, Dayjs | null] | null;
  appRange: string[];
}

/** Which field shows each problem found before sending. */
const PROBLEM_FIELD: Record<FormProblem, keyof FormShape> = {
  sealRequired: 'sealCode',
  granteeRequired: 'memberIds',
  tooManyGrantees: 'memberIds',
  appIdInvalid: 'appIds',
  usesInvalid: 'usesLimit',
  rangeRequired: 'range',
  rangeInPast: 'range',
  appRangeInvalid: 'appRange',
  tooManyApps: 'appRange',
};

function toValues(f: FormShape): AuthorizeFormValues {
  const [from, to] = f.range ?? [null, null];
  return {
    sealCode: f.sealCode,
    memberIds: f.memberIds ?? [],
    appIds: f.appIds ?? [],
    usesMode: f.usesMode,
    usesLimit: f.usesLimit,
    validityMode: f.validityMode,
    range: from && to ? [from.toDate(), to.toDate()] : null,
    appRange: f.appRange ?? [],
  };
}

function toShape(v: AuthorizeFormValues): FormShape {
  return {
    sealCode: v.sealCode,
    memberIds: v.memberIds,
    appIds: v.appIds,
    usesMode: v.usesMode,
    usesLimit: v.usesLimit ?? null,
    validityMode: v.validityMode,
    range: v.range ? [dayjs(v.range[0]), dayjs(v.range[1])] : null,
    appRange: v.appRange,
  };
}

/**
 * /sealService/authorizeCreate: grant a seal to members and apps (`?sealCode=` preselects the seal), or with
 * `?authCode=` change the uses, validity and app range of a grant in effect.
 */
export function AuthorizeCreatePage({ route }: PageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const authCode = params.get('authCode');
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  const permission = useAuthorisePermission(inOrg);
  const detail = useSealAuthDetail(authCode);
  const title = authCode ? t('sealAuthz.editTitle') : t(route.titleKey, { ns: 'route' });
  const back = authCode ? authorizeDetailPath(authCode) : AUTHORIZE_MNG_PATH;

  let body;
  if (!account.data || (inOrg && permission.isPending) || (authCode && detail.isPending))
    body = <PageLoading />;
  else if (!inOrg) body = <Result status="info" title={t('sealAuthz.personSpace')} />;
  else if (!permission.canAuthorise)
    body = <Result status="403" title={t('sealAuthz.noPermission')} data-testid="authz-no-permission" />;
  else if (authCode && !detail.data)
    body = <Result status="warning" title={t('sealAuthz.notFound')} data-testid="authz-not-found" />;
  else if (detail.data && detail.data.status !== 'inEffect')
    body = <Result status="warning" title={t('sealAuthz.notEditable')} data-testid="authz-not-editable" />;
  else body = <AuthorizeForm original={detail.data ?? null} preselect={params.get('sealCode')} />;

  return (
    <div className="os-page" data-testid="authz-create-page">
      <BackHeader title={title} fallback={back} />
      <div className="os-card">{body}</div>
    </div>
  );
}

function SectionTitle({ n, text }: { n: number; text: string }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 10, margin: '8px 0 16px' }}>
      <span
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: 22,
          height: 22,
          borderRadius: '50%',
          background: 'var(--os-primary)',
          color: '#fff',
          fontSize: 12,
        }}
      >
        {n}
      </span>
      <Typography.Text strong style={{ fontSize: 15 }}>
        {text}
      </Typography.Text>
    </div>
  );
}

function AuthorizeForm({
  original,
  preselect,
}: {
  original: SealAuthorization | null;
  preselect: string | null;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isEdit = original !== null;
  const [form] = Form.useForm<FormShape>();
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const seals = useMySeals({ status: 'normal', pageNum: 1, pageSize: 100 }, !isEdit);
  const members = useGranteeMembers(!isEdit);
  const images = useSealImages();
  const usesMode = Form.useWatch('usesMode', form);
  const validityMode = Form.useWatch('validityMode', form);
  const sealCode = Form.useWatch('sealCode', form);

  const initial = useMemo<FormShape>(
    () =>
      original
        ? {
            ...toShape(formFromAuthorization(original)),
            // The start of a grant stays; only its end may move (a permanent grant may get one).
            range: [dayjs(original.validFrom), original.validTo ? dayjs(original.validTo) : null],
          }
        : {
            sealCode: preselect ?? undefined,
            memberIds: [],
            appIds: [],
            usesMode: 'unlimited',
            usesLimit: null,
            validityMode: 'permanent',
            range: null,
            appRange: [],
          },
    [original, preselect],
  );

  const normalSeals: Seal[] = seals.data?.list ?? [];
  const chosenSeal = normalSeals.find((s) => s.sealCode === sealCode);

  const submit = async () => {
    setServerError(null);
    const shape = form.getFieldsValue(true) as FormShape;
    const values = toValues(shape);
    const now = new Date();
    const problems = validateAuthorizeForm(values, now, isEdit ? 'edit' : 'create');
    const fields = [...new Set(Object.values(PROBLEM_FIELD))];
    form.setFields(
      fields.map((name) => ({
        name,
        errors: problems.filter((p) => PROBLEM_FIELD[p] === name).map((p) => t(`sealAuthz.problems.${p}`)),
      })),
    );
    if (problems.length > 0) return;
    setBusy(true);
    try {
      if (original) {
        const request = toEditRequest(original, values);
        if (!request) {
          toastWarning(t('sealAuthz.nothingChanged'));
          return;
        }
        const saved = await editSealAuth(request);
        toastSuccess(t('sealAuthz.editDone'));
        await queryClient.invalidateQueries({ queryKey: SEAL_AUTH_KEY });
        void navigate(authorizeDetailPath(saved.authCode), { replace: true });
      } else {
        const added = await addSealAuth(toAddRequest(values, now));
        toastSuccess(t('sealAuthz.createDone', { count: added.list.length }));
        await queryClient.invalidateQueries({ queryKey: SEAL_AUTH_KEY });
        const only = added.list.length === 1 ? added.list[0] : undefined;
        void navigate(only ? authorizeDetailPath(only.authCode) : AUTHORIZE_MNG_PATH);
      }
    } catch (error) {
      if (isApiError(error) && error.kind === 'api') setServerError(error.message);
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const memberOptions = (members.data?.list ?? [])
    .filter((m) => m.memberId)
    .map((m) => ({
      value: m.memberId ?? '',
      label: `${m.nickname || m.name}${m.nickname && m.name && m.nickname !== m.name ? `（${m.name}）` : ''} ${m.mobile}`,
    }));
  const today = startOfDay(new Date());

  return (
    <Form<FormShape>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '150px' }}
      wrapperCol={{ flex: 'auto' }}
      initialValues={initial}
      onFinish={() => void submit()}
      onValuesChange={(changed: Partial<FormShape>) => {
        // A problem found before sending goes as soon as its field is touched again.
        const names = Object.keys(changed) as (keyof FormShape)[];
        if (names.includes('appIds')) names.push('memberIds');
        if (names.includes('validityMode')) names.push('range');
        if (names.includes('usesMode')) names.push('usesLimit');
        form.setFields(names.map((name) => ({ name, errors: [] })));
      }}
      style={{ maxWidth: 860 }}
      data-testid="authz-form"
      data-mode={isEdit ? 'edit' : 'create'}
    >
      {serverError ? (
        <Alert
          type="error"
          showIcon
          message={serverError}
          style={{ marginBottom: 16 }}
          data-testid="authz-form-error"
          closable
          onClose={() => setServerError(null)}
        />
      ) : null}

      {original ? (
        <>
          <Alert type="info" showIcon message={t('sealAuthz.editFixed')} style={{ marginBottom: 16 }} />
          <Descriptions
            bordered
            size="small"
            column={1}
            styles={{ label: { width: 150 } }}
            style={{ marginBottom: 24 }}
          >
            <Descriptions.Item label={t('sealAuthz.authCode')}>{original.authCode}</Descriptions.Item>
            <Descriptions.Item label={t('sealAuthz.seal')}>
              <SealCell a={original} image={images.get(original.sealCode)} />
            </Descriptions.Item>
            <Descriptions.Item label={t('sealAuthz.grantee')}>
              <GranteeCell a={original} />
            </Descriptions.Item>
            <Descriptions.Item label={t('sealAuthz.remaining')}>
              <UsesCell a={original} wide />
            </Descriptions.Item>
            <Descriptions.Item label={t('sealAuthz.status')}>
              <StatusTag set="authStatus" value={original.status} />
            </Descriptions.Item>
          </Descriptions>
        </>
      ) : (
        <>
          <SectionTitle n={1} text={t('sealAuthz.stepSeal')} />
          {seals.data && normalSeals.length === 0 ? (
            <Alert
              type="warning"
              showIcon
              message={t('sealAuthz.noNormalSeal')}
              style={{ marginBottom: 16 }}
              data-testid="authz-no-seal"
            />
          ) : null}
          <Form.Item label={t('sealAuthz.seal')} name="sealCode" required>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('sealAuthz.sealPlaceholder')}
              loading={seals.isPending}
              options={normalSeals.map((s) => ({ value: s.sealCode, label: s.name }))}
              optionRender={(o) => {
                const s = normalSeals.find((x) => x.sealCode === o.value);
                return (
                  <Space>
                    <SealThumb url={s?.imageUrl ?? undefined} size={28} />
                    <span>{o.label}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {s ? t(`sealCommon.kind.${s.sealKind}`) : ''}
                    </Typography.Text>
                  </Space>
                );
              }}
              data-testid="authz-seal-select"
            />
          </Form.Item>
          {chosenSeal ? (
            <Form.Item label=" " colon={false}>
              <Space size={16} data-testid="authz-chosen-seal">
                <SealThumb url={chosenSeal.imageUrl ?? undefined} size={72} />
                <Space direction="vertical" size={2}>
                  <Typography.Text strong>{chosenSeal.name}</Typography.Text>
                  <Typography.Text type="secondary">
                    {t(`sealCommon.kind.${chosenSeal.sealKind}`)} ·{' '}
                    {t(`sealCommon.carrier.${chosenSeal.carrier}`)}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {chosenSeal.sealCode}
                  </Typography.Text>
                </Space>
              </Space>
            </Form.Item>
          ) : null}

          <SectionTitle n={2} text={t('sealAuthz.stepGrantee')} />
          {members.isError ? (
            <Alert
              type="warning"
              showIcon
              message={t('sealAuthz.membersUnavailable')}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          <Form.Item label={t('sealAuthz.members')} name="memberIds" extra={t('sealAuthz.membersHint')}>
            <Select
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('sealAuthz.membersPlaceholder')}
              loading={members.isPending}
              options={memberOptions}
              disabled={members.isError}
              data-testid="authz-member-select"
            />
          </Form.Item>
          <Form.Item label={t('sealAuthz.apps')} name="appIds" extra={t('sealAuthz.appsHint')}>
            <Select
              mode="tags"
              open={false}
              suffixIcon={null}
              tokenSeparators={[',', ' ', '，']}
              placeholder={t('sealAuthz.appsPlaceholder')}
              data-testid="authz-app-input"
            />
          </Form.Item>
        </>
      )}

      <SectionTitle n={isEdit ? 1 : 3} text={t('sealAuthz.stepLimits')} />
      <Form.Item label={t('sealAuthz.usesMode')} name="usesMode" required>
        <Radio.Group
          optionType="button"
          options={(['unlimited', 'counted'] as const).map((m) => ({
            value: m,
            label: <span data-testid={`authz-uses-${m}`}>{t(`sealAuthz.usesModes.${m}`)}</span>,
          }))}
        />
      </Form.Item>
      {usesMode === 'counted' ? (
        <Form.Item label={t('sealAuthz.usesLimit')} name="usesLimit" required>
          <InputNumber
            min={1}
            max={MAX_USES}
            precision={0}
            style={{ width: 200 }}
            placeholder={t('sealAuthz.usesLimit')}
            suffix={t('sealAuthz.usesUnit')}
            data-testid="authz-uses-limit"
          />
        </Form.Item>
      ) : null}
      <Form.Item label={t('sealAuthz.validityMode')} name="validityMode" required>
        <Radio.Group
          optionType="button"
          options={(['permanent', 'dated'] as const).map((m) => ({
            value: m,
            label: <span data-testid={`authz-validity-${m}`}>{t(`sealAuthz.validityModes.${m}`)}</span>,
          }))}
        />
      </Form.Item>
      {validityMode === 'dated' ? (
        <Form.Item label={t('sealAuthz.rangeLabel')} name="range" required>
          <DatePicker.RangePicker
            allowEmpty={[false, false]}
            disabled={isEdit ? [true, false] : undefined}
            disabledDate={(d) => d.toDate() < today}
            placeholder={[t('sealAuthz.rangeStart'), t('sealAuthz.rangeEnd')]}
            data-testid="authz-range"
          />
        </Form.Item>
      ) : null}
      <Form.Item label={t('sealAuthz.appRangeLabel')} name="appRange" extra={t('sealAuthz.appRangeHint')}>
        <Select
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', ' ', '，']}
          placeholder={t('sealAuthz.appRangePlaceholder')}
          data-testid="authz-app-range-input"
        />
      </Form.Item>

      <Form.Item label=" " colon={false} style={{ marginTop: 24, marginBottom: 0 }}>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="authz-submit">
            {isEdit ? t('sealAuthz.save') : t('sealAuthz.submit')}
          </Button>
          <Button
            onClick={() =>
              void navigate(original ? authorizeDetailPath(original.authCode) : AUTHORIZE_MNG_PATH)
            }
            data-testid="authz-form-cancel"
          >
            {t('sealAuthz.cancelForm')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
