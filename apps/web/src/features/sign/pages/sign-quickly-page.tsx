import { CheckCircleFilled, DeleteOutlined, DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Input,
  List,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Steps,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { useAccessToken } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import type { PageProps } from '../../../lib/page';
import { createFlow, downloadFlowFile, SIGN_KEY, useFlowDetail } from '../api/flows';
import type { FlowDetail, FlowValidity, SignerInput, SignOrder } from '../api/types';
import { SignFileUpload } from '../components/sign-file-upload';
import { SignTaskBody } from '../components/sign-task-body';
import { FlowStatusTag } from '../components/status-tags';
import { detailPath } from '../model/format';
import { hasContract, readyToPlace, type PickedFile } from '../model/upload-rules';

const VALIDITIES: FlowValidity[] = ['1m', '3m', '6m', '1y'];

interface OtherSigner {
  key: number;
  type: 'person' | 'organization';
  name: string;
  mobile: string;
  organizeName: string;
}

function toSignerInputs(list: readonly OtherSigner[]): SignerInput[] {
  return list
    .filter((s) => s.name.trim() && s.mobile.trim())
    .map((s) => ({
      type: s.type,
      name: s.name.trim(),
      mobile: s.mobile.trim(),
      organizeName: s.type === 'organization' ? s.organizeName.trim() || undefined : undefined,
    }));
}

/**
 * /signService/signQuickly: 1 upload (≤ 10 pdf/ofd files, duplicates refused, contracts marked; other
 * signers, order and validity optional) — moving on creates the quick flow; 2 place seals and signatures in
 * the viewer; 3 will-auth by SMS and sign; 4 download the signed files, open the record, verify. The flow
 * and task are kept in the address, so the stand-alone will-auth page can return here.
 */
export function SignQuicklyPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const flowId = params.get('flowId');
  const taskId = params.get('taskId');
  const willBizId = params.get('willAuth') === '3' ? params.get('willBizId') : null;
  const done = params.get('done') === '1';
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [others, setOthers] = useState<OtherSigner[]>([]);
  const [order, setOrder] = useState<SignOrder>('sequential');
  const [validity, setValidity] = useState<FlowValidity>('1m');
  const [creating, setCreating] = useState(false);
  const flow = useFlowDetail(flowId);
  const token = useAccessToken();

  const step = !flowId ? 0 : done ? 3 : 1;

  const start = async () => {
    const contract = files.find((f) => f.role === 'contract');
    if (!contract) return;
    setCreating(true);
    try {
      const created: FlowDetail = await createFlow({
        name: contract.name.replace(/\.(pdf|ofd)$/i, ''),
        scene: 'quick',
        files: files.map((f) => ({ fileKey: f.fileKey ?? '', role: f.role })),
        order,
        validity,
        initiatorSigns: true,
        signers: toSignerInputs(others),
      });
      queryClient.setQueryData([...SIGN_KEY, 'flow', token, created.flowId], created);
      setParams({ flowId: created.flowId, taskId: created.myTaskId ?? '' });
    } catch (error) {
      handleApiError(error);
    } finally {
      setCreating(false);
    }
  };

  const setOther = (key: number, patch: Partial<OtherSigner>) =>
    setOthers((list) => list.map((s) => (s.key === key ? { ...s, ...patch } : s)));

  return (
    <div className="os-page" data-testid="sign-quickly-page" data-step={step}>
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/signService/signByMe" />
      <div className="os-card">
        <Steps
          current={step}
          style={{ marginBottom: 24 }}
          items={[
            { title: t('signQuick.step.upload') },
            { title: t('signQuick.step.place') },
            { title: t('signQuick.step.will') },
            { title: t('signQuick.step.done') },
          ]}
        />
        {step === 0 ? (
          <Row gutter={24}>
            <Col xs={24} lg={14}>
              <SignFileUpload files={files} onChange={setFiles} />
              {files.length > 0 && !hasContract(files) ? (
                <Alert
                  type="warning"
                  showIcon
                  title={t('signQuick.contractRequired')}
                  style={{ marginTop: 12 }}
                />
              ) : null}
            </Col>
            <Col xs={24} lg={10}>
              <Card size="small" title={t('signQuick.others')}>
                <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                  {t('signQuick.othersHint')}
                </Typography.Paragraph>
                <List
                  dataSource={others}
                  locale={{ emptyText: t('signQuick.onlyMe') }}
                  renderItem={(s) => (
                    <List.Item data-testid="other-signer">
                      <Space orientation="vertical" style={{ width: '100%' }} size={6}>
                        <Space>
                          <Radio.Group
                            size="small"
                            optionType="button"
                            value={s.type}
                            onChange={(e) => setOther(s.key, { type: e.target.value as OtherSigner['type'] })}
                            options={(['person', 'organization'] as const).map((v) => ({
                              value: v,
                              label: t(`signCommon.signerType.${v}`),
                            }))}
                          />
                          <Button
                            size="small"
                            type="text"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label={t('signQuick.remove')}
                            onClick={() => setOthers((list) => list.filter((o) => o.key !== s.key))}
                          />
                        </Space>
                        {s.type === 'organization' ? (
                          <Input
                            placeholder={t('signQuick.orgName')}
                            value={s.organizeName}
                            onChange={(e) => setOther(s.key, { organizeName: e.target.value })}
                          />
                        ) : null}
                        <Space.Compact style={{ width: '100%' }}>
                          <Input
                            placeholder={t('signQuick.signerName')}
                            value={s.name}
                            onChange={(e) => setOther(s.key, { name: e.target.value })}
                          />
                          <Input
                            placeholder={t('signQuick.signerMobile')}
                            value={s.mobile}
                            onChange={(e) => setOther(s.key, { mobile: e.target.value })}
                          />
                        </Space.Compact>
                      </Space>
                    </List.Item>
                  )}
                />
                <Button
                  block
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={others.length >= 19}
                  onClick={() =>
                    setOthers((list) => [
                      ...list,
                      { key: Date.now(), type: 'person', name: '', mobile: '', organizeName: '' },
                    ])
                  }
                  data-testid="add-signer"
                >
                  {t('signQuick.addSigner')}
                </Button>
                <Space orientation="vertical" style={{ width: '100%', marginTop: 16 }}>
                  <Typography.Text>{t('signQuick.order')}</Typography.Text>
                  <Radio.Group
                    value={order}
                    onChange={(e) => setOrder(e.target.value as SignOrder)}
                    options={(['sequential', 'parallel'] as const).map((v) => ({
                      value: v,
                      label: t(`signCommon.order.${v}`),
                    }))}
                  />
                  <Typography.Text>{t('signQuick.validity')}</Typography.Text>
                  <Select
                    value={validity}
                    onChange={setValidity}
                    style={{ width: 200 }}
                    options={VALIDITIES.map((v) => ({ value: v, label: t(`signCommon.validity.${v}`) }))}
                    data-testid="quick-validity"
                  />
                </Space>
              </Card>
            </Col>
            <Col span={24} style={{ marginTop: 24, textAlign: 'right' }}>
              <Button
                type="primary"
                size="large"
                disabled={!readyToPlace(files)}
                loading={creating}
                onClick={() => void start()}
                data-testid="quick-next"
              >
                {t('signQuick.next')}
              </Button>
            </Col>
          </Row>
        ) : step === 1 ? (
          flow.data && taskId ? (
            <SignTaskBody
              flow={flow.data}
              taskId={taskId}
              willBizId={willBizId}
              redirectPath={`/signService/signQuickly?flowId=${encodeURIComponent(flow.data.flowId)}&taskId=${encodeURIComponent(taskId)}`}
              onDone={() => {
                void queryClient.invalidateQueries({ queryKey: SIGN_KEY });
                setParams({ flowId: flow.data?.flowId ?? '', taskId, done: '1' });
              }}
            />
          ) : (
            <Spin style={{ display: 'block', padding: 48 }} />
          )
        ) : flow.data ? (
          <Result
            status="success"
            icon={<CheckCircleFilled />}
            title={t('signQuick.doneTitle')}
            subTitle={
              <span>
                {flow.data.name} <FlowStatusTag status={flow.data.status} />
              </span>
            }
            data-testid="quick-result"
            data-flow-id={flow.data.flowId}
            extra={
              <Space orientation="vertical" size={16}>
                <List
                  bordered
                  dataSource={flow.data.files}
                  renderItem={(f) => (
                    <List.Item
                      data-testid="quick-result-file"
                      actions={[
                        <Button
                          key="dl"
                          icon={<DownloadOutlined />}
                          onClick={() => void downloadFlowFile(flow.data!.flowId, f).catch(handleApiError)}
                          data-testid="quick-download"
                          data-format={f.format}
                        >
                          {t('signCommon.download')}
                        </Button>,
                      ]}
                    >
                      {f.name} ·{' '}
                      {f.format === 'pdf'
                        ? t('signQuick.signatures', { count: f.signatures })
                        : t('signCommon.ofdPending')}
                    </List.Item>
                  )}
                />
                <Space>
                  <Button
                    onClick={() => void navigate(detailPath(flow.data!.flowId))}
                    data-testid="quick-detail"
                  >
                    {t('signQuick.toDetail')}
                  </Button>
                  <Link to="/verifySign" data-testid="quick-verify">
                    <Button>{t('signQuick.toVerify')}</Button>
                  </Link>
                  <Button type="primary" onClick={() => setParams({})} data-testid="quick-again">
                    {t('signQuick.again')}
                  </Button>
                </Space>
              </Space>
            }
          />
        ) : (
          <Spin style={{ display: 'block', padding: 48 }} />
        )}
      </div>
    </div>
  );
}
