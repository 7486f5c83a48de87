import {
  CheckCircleOutlined,
  FileSearchOutlined,
  LoadingOutlined,
  SaveOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { parseTemplate, type SealTemplate } from '@openseal/seal-image';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  Radio,
  Result,
  Row,
  Space,
  Spin,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { handleApiError } from '../../../lib/api-error-handler';
import { isApiError } from '../../../lib/api-client';
import type { PageProps } from '../../../lib/page';
import {
  applySeal,
  uploadSealImage,
  useApplyViewer,
  useCustomSealConfig,
  useKindStatuses,
  useMoulagePreview,
  type SealKind,
  type SealKindStatus,
  type WorkOrder,
} from '../api/apply';
import { SEALS_KEY, useSealKinds, type SealKindOption } from '../api/seals';
import { ApplyKindPicker } from '../components/apply-kind-picker';
import { HandDrawnPad } from '../components/hand-drawn-pad';
import { SealPreview } from '../components/seal-preview';
import {
  buildApplyRequest,
  formFields,
  formProblems,
  hasProblems,
  initialValues,
  previewRequest,
  sizeOf,
  type ApplyFormValues,
  type DrawType,
} from '../model/apply-form';
import { detailPath, LIST_PATH } from '../model/apply-records';

/** The longest custom title when the custom config cannot be read (CUSTOM_SEAL_CONFIG's default). */
const FALLBACK_TITLE_MAX = 20;

/** A value that settles a moment after the last change, so typing a title does not flood the preview. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

type HandDrawn =
  { state: 'none' } | { state: 'uploading' } | { state: 'ready'; fileKey: string; url: string };

/**
 * /sealService/applySeal (spec sections 1–3): choose a kind the space may still apply for, then the
 * carrier, drawing type and titles, watching the impression the server would make drawn live by the
 * browser engine (download, print, template save and load); a hand-drawn seal is drawn on a pad. Submit
 * sends it for review, or it is saved as a draft.
 */
export function ApplySealPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const viewer = useApplyViewer();
  const kinds = useSealKinds();
  const custom = useCustomSealConfig();
  const kindList = useMemo(() => kinds.data?.list ?? [], [kinds.data]);
  const statusQueries = useKindStatuses(kindList.map((k) => k.kind));
  const statuses: Partial<Record<SealKind, SealKindStatus>> = {};
  for (const q of statusQueries) if (q.data) statuses[q.data.sealKind] = q.data;
  const titleMax = custom.data?.titleMaxLength ?? FALLBACK_TITLE_MAX;

  const [kind, setKind] = useState<SealKind | null>(null);
  const option: SealKindOption | null = kindList.find((k) => k.kind === kind) ?? null;
  const [values, setValues] = useState<ApplyFormValues>({
    sealType: 0,
    carrier: 'cloud',
    securityLines: false,
  });
  const [handDrawn, setHandDrawn] = useState<HandDrawn>({ state: 'none' });
  const [loaded, setLoaded] = useState<SealTemplate | null>(null);
  const [sending, setSending] = useState<'submit' | 'draft' | null>(null);
  const [result, setResult] = useState<WorkOrder | null>(null);

  const choose = (next: SealKind) => {
    const o = kindList.find((k) => k.kind === next);
    if (!o) return;
    setKind(next);
    setValues(initialValues(o));
    setHandDrawn({ state: 'none' });
    setLoaded(null);
  };

  // `?sealKind=` opens the form of that kind when the space may apply for it.
  const wanted = params.get('sealKind');
  const wantedOpen = wanted ? statuses[wanted as SealKind]?.canApply : undefined;
  useEffect(() => {
    if (kind === null && wanted && wantedOpen) choose(wanted as SealKind);
  }, [wanted, wantedOpen]);

  // The uploaded drawing's object address is released when it is replaced or the page closes.
  useEffect(() => {
    if (handDrawn.state !== 'ready') return;
    const url = handDrawn.url;
    return () => URL.revokeObjectURL(url);
  }, [handDrawn]);

  const settled = useSettled(values, 350);
  const moulageRequest = option ? previewRequest(option, settled, titleMax) : null;
  const moulage = useMoulagePreview(moulageRequest);
  const serverTemplate = useMemo(() => {
    if (!moulage.data) return null;
    try {
      return parseTemplate(moulage.data.template);
    } catch {
      return null;
    }
  }, [moulage.data]);
  // A template loaded from a file shows until the form changes.
  const requestKey = JSON.stringify(moulageRequest);
  useEffect(() => setLoaded(null), [requestKey]);

  if (!viewer || kinds.isPending) return <PageLoading />;
  const title = t(route.titleKey, { ns: 'route' });

  const fileKey = handDrawn.state === 'ready' ? handDrawn.fileKey : null;
  const fields = option ? formFields(option, values.sealType) : null;
  const problems = option ? formProblems(option, values, titleMax, fileKey) : null;
  const blocked = option ? statuses[option.kind]?.canApply === false : true;
  const size = option ? sizeOf(option, values.sealType) : null;
  const set = (patch: Partial<ApplyFormValues>) => setValues((v) => ({ ...v, ...patch }));

  const onDrawn = async (png: Blob) => {
    setHandDrawn({ state: 'uploading' });
    try {
      const uploaded = await uploadSealImage(png);
      setHandDrawn({ state: 'ready', fileKey: uploaded.fileKey, url: URL.createObjectURL(png) });
    } catch (error) {
      setHandDrawn({ state: 'none' });
      handleApiError(error);
    }
  };

  const send = async (submit: boolean) => {
    if (!option || !problems || hasProblems(problems)) return;
    setSending(submit ? 'submit' : 'draft');
    try {
      const order = await applySeal(buildApplyRequest(option, values, submit, fileKey));
      await queryClient.invalidateQueries({ queryKey: SEALS_KEY });
      setResult(order);
    } catch (error) {
      handleApiError(error);
    } finally {
      setSending(null);
    }
  };

  const reset = () => {
    setResult(null);
    setKind(null);
    setHandDrawn({ state: 'none' });
    setLoaded(null);
  };

  if (result) {
    const submitted = result.status === 'pendingReview';
    return (
      <div className="os-page" data-testid="apply-seal-page">
        <BackHeader title={title} fallback="/sealService/mySealList" />
        <div className="os-card">
          <Result
            status="success"
            data-testid="apply-result"
            data-apply-no={result.applyNo}
            data-status={result.status}
            title={submitted ? t('sealApply.resultSubmittedTitle') : t('sealApply.resultDraftTitle')}
            subTitle={
              <Space orientation="vertical" size={4}>
                <span data-testid="apply-result-no">
                  {t('sealApply.resultApplyNo', { applyNo: result.applyNo })}
                </span>
                <span>
                  {submitted
                    ? viewer.inOrg
                      ? t('sealApply.resultSubmittedText')
                      : t('sealApply.resultPersonText')
                    : t('sealApply.resultDraftText')}
                </span>
              </Space>
            }
            extra={[
              <Button
                key="records"
                type="primary"
                data-testid="apply-result-records"
                onClick={() => void navigate(LIST_PATH[result.carrier])}
              >
                {t('sealApply.toRecords')}
              </Button>,
              <Button
                key="detail"
                data-testid="apply-result-detail"
                onClick={() => void navigate(detailPath(result))}
              >
                {t('sealApply.toDetail')}
              </Button>,
              <Button key="again" data-testid="apply-result-again" onClick={reset}>
                {t('sealApply.applyAnother')}
              </Button>,
            ]}
          />
        </div>
      </div>
    );
  }

  const titleHelp = (problem: string | null) =>
    problem
      ? t(`sealApply.titleProblem.${problem}`, { max: titleMax })
      : t('sealApply.titleHelp', { max: titleMax });

  const previewArea = (() => {
    if (!option) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sealApply.pickKind')} />;
    if (option.handDrawn) {
      if (handDrawn.state === 'ready')
        return (
          <div
            style={{
              width: 240,
              height: 240,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              background: 'repeating-conic-gradient(#f5f5f5 0 25%, #fff 0 50%) 0 0 / 16px 16px',
              border: '1px solid #f0f0f0',
            }}
          >
            <img
              src={handDrawn.url}
              alt={t('sealApply.handDrawnTitle')}
              data-testid="apply-hand-drawn-image"
              style={{ maxWidth: '90%', maxHeight: '90%' }}
            />
          </div>
        );
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sealApply.handDrawnMissing')} />;
    }
    if (!moulageRequest)
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sealApply.previewWaiting')} />;
    if (moulage.isError && !moulage.isFetching)
      return (
        <Alert
          type="error"
          showIcon
          data-testid="apply-preview-error"
          title={t('sealApply.previewFailed')}
          description={isApiError(moulage.error) ? moulage.error.message : undefined}
        />
      );
    const template = loaded ?? serverTemplate;
    if (!template) return <Spin />;
    return (
      <Space orientation="vertical" size={8}>
        {loaded ? (
          <Alert
            type="info"
            showIcon
            title={t('sealApply.previewLoaded')}
            action={
              <Button size="small" onClick={() => setLoaded(null)}>
                {t('sealApply.previewReset')}
              </Button>
            }
          />
        ) : null}
        <SealPreview template={template} displayPx={240} onTemplateLoaded={setLoaded} />
      </Space>
    );
  })();

  return (
    <div className="os-page" data-testid="apply-seal-page">
      <BackHeader
        title={title}
        fallback="/sealService/mySealList"
        extra={
          <Button
            icon={<FileSearchOutlined />}
            data-testid="apply-to-records"
            onClick={() => void navigate(LIST_PATH.cloud)}
          >
            {t('sealApply.toRecords')}
          </Button>
        }
      />
      <div className="os-card">
        <Alert
          type="info"
          showIcon
          title={viewer.inOrg ? t('sealApply.intro') : t('sealApply.introPerson')}
          style={{ marginBottom: 20 }}
        />
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          1. {t('sealApply.stepKind')}
        </Typography.Title>
        <ApplyKindPicker
          kinds={kindList}
          statuses={statuses}
          selected={kind}
          onSelect={choose}
          loading={kinds.isPending}
        />
      </div>

      <Row gutter={16} align="stretch">
        <Col xs={24} lg={14}>
          <div className="os-card" style={{ height: '100%' }} data-testid="apply-form">
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              2. {t('sealApply.stepInfo')}
            </Typography.Title>
            {!option || !fields || !problems ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sealApply.pickKind')} />
            ) : (
              <Form
                layout="horizontal"
                labelCol={{ flex: '112px' }}
                wrapperCol={{ flex: 'auto' }}
                colon={false}
              >
                <Form.Item label={t('sealCommon.sealKind')}>
                  <Typography.Text strong data-testid="apply-form-kind">
                    {t(`sealCommon.kind.${option.kind}`)}
                  </Typography.Text>
                  {option.title ? (
                    <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
                      {t('sealApply.fixedTitle', { title: option.title })}
                    </Typography.Text>
                  ) : null}
                </Form.Item>
                <Form.Item
                  label={t('sealApply.carrier')}
                  extra={
                    fields.carrier
                      ? values.carrier === 'cloud'
                        ? t('sealApply.carrierCloudHelp')
                        : t('sealApply.carrierUkeyHelp')
                      : t('sealApply.carrierPersonOnly')
                  }
                >
                  <Radio.Group
                    optionType="button"
                    buttonStyle="solid"
                    value={fields.carrier ? values.carrier : 'cloud'}
                    onChange={(e) => set({ carrier: e.target.value as ApplyFormValues['carrier'] })}
                    data-testid="apply-carrier"
                    options={[
                      { value: 'cloud', label: t('sealCommon.carrier.cloud') },
                      { value: 'ukey', label: t('sealCommon.carrier.ukey'), disabled: !fields.carrier },
                    ]}
                  />
                </Form.Item>
                <Form.Item label={t('sealApply.sealType')}>
                  <Radio.Group
                    value={values.sealType}
                    onChange={(e) => set({ sealType: e.target.value as DrawType })}
                    data-testid="apply-seal-type"
                  >
                    <Space wrap>
                      {option.sealTypes.map((s) => (
                        <Radio key={s} value={s} data-testid={`apply-seal-type-${s}`}>
                          {t(`sealCommon.drawType.${s}`)}
                        </Radio>
                      ))}
                    </Space>
                  </Radio.Group>
                </Form.Item>
                {fields.title ? (
                  <Form.Item
                    label={t('sealApply.title')}
                    required
                    validateStatus={problems.title && values.title !== undefined ? 'error' : undefined}
                    help={titleHelp(values.title !== undefined ? problems.title : null)}
                  >
                    <Input
                      value={values.title ?? ''}
                      maxLength={titleMax}
                      showCount
                      placeholder={t('sealApply.titlePlaceholder')}
                      data-testid="apply-title"
                      onChange={(e) => set({ title: e.target.value })}
                    />
                  </Form.Item>
                ) : null}
                {fields.title0 ? (
                  <Form.Item
                    label={t('sealApply.title0')}
                    validateStatus={problems.title0 ? 'error' : undefined}
                    help={titleHelp(problems.title0)}
                  >
                    <Input
                      value={values.title0 ?? ''}
                      maxLength={titleMax}
                      showCount
                      placeholder={t('sealApply.title0Placeholder')}
                      data-testid="apply-title0"
                      onChange={(e) => set({ title0: e.target.value })}
                    />
                  </Form.Item>
                ) : null}
                {fields.securityLines ? (
                  <Form.Item label={t('sealApply.securityLines')} extra={t('sealApply.securityLinesHelp')}>
                    <Switch
                      checked={values.securityLines}
                      onChange={(checked) => set({ securityLines: checked })}
                      data-testid="apply-security-lines"
                    />
                  </Form.Item>
                ) : null}
                {fields.handDrawn ? (
                  <Form.Item
                    label={t('sealApply.handDrawnTitle')}
                    extra={t('sealApply.handDrawnHelp')}
                    required
                    layout="vertical"
                    labelCol={{ span: 24 }}
                    wrapperCol={{ span: 24 }}
                  >
                    {handDrawn.state === 'ready' ? (
                      <Space>
                        <Typography.Text type="success" data-testid="apply-hand-drawn-ready">
                          <CheckCircleOutlined /> {t('sealApply.handDrawnReady')}
                        </Typography.Text>
                        <Button
                          size="small"
                          onClick={() => setHandDrawn({ state: 'none' })}
                          data-testid="apply-hand-drawn-redraw"
                        >
                          {t('sealApply.handDrawnRedraw')}
                        </Button>
                      </Space>
                    ) : handDrawn.state === 'uploading' ? (
                      <Typography.Text type="secondary">
                        <LoadingOutlined /> {t('sealApply.handDrawnUploading')}
                      </Typography.Text>
                    ) : (
                      <HandDrawnPad onConfirm={(png) => void onDrawn(png)} width={440} height={220} />
                    )}
                  </Form.Item>
                ) : null}
                <Form.Item label={t('sealApply.size')}>
                  <Typography.Text data-testid="apply-size">
                    {size ? t('sealApply.sizeValue', { w: size.widthMm, h: size.heightMm }) : '—'}
                  </Typography.Text>
                </Form.Item>
              </Form>
            )}
          </div>
        </Col>
        <Col xs={24} lg={10}>
          <div className="os-card" style={{ height: '100%' }} data-testid="apply-preview">
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              3. {t('sealApply.stepPreview')}
            </Typography.Title>
            <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12 }}>
              {previewArea}
              {option && !option.handDrawn && moulage.data && moulageRequest ? (
                <Descriptions
                  size="small"
                  column={1}
                  style={{ width: '100%', marginTop: 4 }}
                  items={[
                    {
                      key: 'name',
                      label: t('sealCommon.sealName'),
                      children: <span data-testid="apply-preview-name">{moulage.data.name}</span>,
                    },
                    {
                      key: 'size',
                      label: t('sealApply.size'),
                      children: (
                        <span data-testid="apply-preview-size">
                          {t('sealApply.sizeValue', { w: moulage.data.widthMm, h: moulage.data.heightMm })}
                        </span>
                      ),
                    },
                    {
                      key: 'bytes',
                      label: t('sealApply.detail.sealImage'),
                      children: t('sealApply.imageBytes', {
                        kb: (moulage.data.imageBytes / 1024).toFixed(1),
                      }),
                    },
                  ]}
                />
              ) : null}
            </div>
          </div>
        </Col>
      </Row>

      <div
        className="os-card"
        style={{
          display: 'flex',
          justifyContent: 'flex-end',
          gap: 12,
          alignItems: 'center',
          flexWrap: 'wrap',
        }}
      >
        {problems?.handDrawn ? (
          <Typography.Text type="secondary" style={{ marginRight: 'auto' }}>
            {t('sealApply.handDrawnMissing')}
          </Typography.Text>
        ) : null}
        <Button
          icon={<SaveOutlined />}
          disabled={!option || blocked || !problems || hasProblems(problems) || sending !== null}
          loading={sending === 'draft'}
          data-testid="apply-save-draft"
          onClick={() => void send(false)}
        >
          {t('sealApply.saveDraft')}
        </Button>
        <Button
          type="primary"
          icon={<SendOutlined />}
          disabled={!option || blocked || !problems || hasProblems(problems) || sending !== null}
          loading={sending === 'submit'}
          data-testid="apply-submit"
          onClick={() => void send(true)}
        >
          {t('sealApply.submit')}
        </Button>
      </div>
    </div>
  );
}
