import { DownloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Result, Space, Tag, Timeline, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import type { PageProps } from '../../../lib/page';
import {
  downloadFlowFile,
  flowAct,
  saveBytes,
  SIGN_KEY,
  urge,
  useChainRecord,
  useFlowDetail,
  useFlowLog,
} from '../api/flows';
import type { ApprovalSummary, ChainRecord, FlowAction, FlowDetail, FlowSigner } from '../api/types';
import { FlowFileTabs } from '../components/flow-file-view';
import { useReasonDialog } from '../components/reason-dialog';
import { ApprovalStatusTag, FlowStatusTag, TaskStatusTag } from '../components/status-tags';
import { formatTime, shortHash, signTaskPath } from '../model/format';
import { ResponsiveTable } from '../../../components/responsive-table';

/**
 * /signService/signRecordDetail?flowId=…: the flow's header (status, validity, reason), its files in the
 * viewer with downloads, the signers in order, the acts the caller may take now (the server's `actions`),
 * the approvals, the sign log as a timeline and the evidence chain record with each proof bundle.
 */
export function SignRecordDetailPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const flowId = params.get('flowId');
  const flow = useFlowDetail(flowId);
  if (!flowId) return <Result status="warning" title={t('signDetail.noFlow')} />;
  if (flow.isError) return <Result status="warning" title={t('signDetail.noFlow')} />;
  if (!flow.data) return <PageLoading />;
  return (
    <div className="os-page" data-testid="sign-detail-page" data-status={flow.data.status}>
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/signService/signRecord" />
      <Detail flow={flow.data} />
    </div>
  );
}

function Detail({ flow }: { flow: FlowDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reason = useReasonDialog();
  const refresh = () => queryClient.invalidateQueries({ queryKey: SIGN_KEY });
  const myTask = flow.myTaskId;

  const act = async (action: FlowAction) => {
    try {
      switch (action) {
        case 'sign':
        case 'requestApproval':
          return void navigate(signTaskPath(flow.flowId, myTask ?? ''));
        case 'refuse':
        case 'withdraw':
        case 'void':
          return reason.open({
            title: t(`signCommon.${action}Title`),
            required: true,
            testId: action,
            run: async (text) => {
              await flowAct(flow.flowId, action, text);
              toastSuccess(t('signCommon.done'));
              await refresh();
            },
          });
        case 'urge':
          toastSuccess(t('signCommon.urged', await urge(flow.flowId)), 3_000);
          return void refresh();
        case 'download':
          for (const f of flow.files) await downloadFlowFile(flow.flowId, f);
          return;
        default: {
          const never: never = action;
          return never;
        }
      }
    } catch (error) {
      handleApiError(error);
    }
  };

  const signerColumns: ColumnsType<FlowSigner> = [
    { title: '#', key: 'order', width: 50, render: (_, s) => s.order },
    {
      title: t('signDetail.signer'),
      key: 'who',
      render: (_, s) => (
        <div>
          <div>
            {s.type === 'organization' ? s.organizeName : s.name}{' '}
            <Tag>{t(`signCommon.signerType.${s.type}`)}</Tag>
            {s.isInitiator ? <Tag color="blue">{t('signCommon.initiator')}</Tag> : null}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {s.type === 'organization' ? `${t('signDetail.signatory')}: ${s.name} · ` : ''}
            {s.mobile}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('signCommon.status'),
      key: 'status',
      width: 150,
      render: (_, s) => <TaskStatusTag status={s.status} />,
    },
    { title: t('signDetail.seal'), key: 'seal', width: 150, render: (_, s) => s.sealName ?? '' },
    {
      title: t('signDetail.signedAt'),
      key: 'signedAt',
      width: 140,
      render: (_, s) => formatTime(s.signedAt),
    },
    {
      title: t('signCommon.operations'),
      key: 'ops',
      width: 100,
      render: (_, s) =>
        flow.actions.includes('urge') && (s.status === 'pending' || s.status === 'approved') ? (
          <Button
            type="link"
            size="small"
            data-testid="signer-urge"
            onClick={() =>
              void urge(flow.flowId, s.taskId)
                .then((r) => toastSuccess(t('signCommon.urged', r), 3_000))
                .then(refresh)
                .catch(handleApiError)
            }
          >
            {t('signCommon.urge')}
          </Button>
        ) : s.refuseReason ? (
          <Typography.Text type="danger">{s.refuseReason}</Typography.Text>
        ) : null,
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <div className="os-card">
        <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 12 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {flow.name} <FlowStatusTag status={flow.status} />
          </Typography.Title>
          <Space wrap data-testid="detail-actions">
            {flow.actions.map((a) => (
              <Button
                key={a}
                type={a === 'sign' ? 'primary' : 'default'}
                danger={a === 'refuse' || a === 'withdraw' || a === 'void'}
                onClick={() => void act(a)}
                data-testid={`detail-${a}`}
              >
                {t(`signDetail.action.${a}`)}
              </Button>
            ))}
          </Space>
        </div>
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginTop: 16 }}>
          <Descriptions.Item label={t('signCommon.initiator')}>
            {flow.initiatorName}
            {flow.initiatorOrganizeName ? ` · ${flow.initiatorOrganizeName}` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('signCommon.createdAt')}>
            {formatTime(flow.createdAt)}
          </Descriptions.Item>
          <Descriptions.Item label={t('signCommon.validUntil')}>
            {formatTime(flow.validUntil)}
          </Descriptions.Item>
          <Descriptions.Item label={t('signDetail.scene')}>
            {t(`signCommon.scene.${flow.scene}`)} · {t(`signCommon.order.${flow.order}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('signDetail.progress')}>
            {t('signCommon.progress', { signed: flow.signedCount, total: flow.signerCount })}
          </Descriptions.Item>
          <Descriptions.Item label={t('signCommon.finishedAt')}>
            {formatTime(flow.finishedAt) || '—'}
          </Descriptions.Item>
        </Descriptions>
        {flow.reason ? (
          <Alert type="warning" showIcon title={`${t('signCommon.reason')}: ${flow.reason}`} />
        ) : null}
      </div>
      <Card title={t('signDetail.files')}>
        <Space wrap style={{ marginBottom: 8 }}>
          {flow.files.map((f) => (
            <Button
              key={f.fileId}
              size="small"
              icon={<DownloadOutlined />}
              data-testid="detail-file-download"
              data-format={f.format}
              onClick={() => void downloadFlowFile(flow.flowId, f).catch(handleApiError)}
            >
              {f.name} (
              {f.format === 'pdf'
                ? t('signDetail.signatures', { count: f.signatures })
                : t('signCommon.ofdPending')}
              )
            </Button>
          ))}
        </Space>
        <FlowFileTabs flowId={flow.flowId} files={flow.files} />
      </Card>
      <Card title={t('signDetail.signers')}>
        <ResponsiveTable<FlowSigner>
          rowKey="taskId"
          size="small"
          pagination={false}
          columns={signerColumns}
          dataSource={flow.signers}
          data-testid="detail-signers"
          onRow={(s) =>
            ({
              'data-testid': 'detail-signer',
              'data-status': s.status,
            }) as HTMLAttributes<HTMLTableRowElement>
          }
        />
      </Card>
      {flow.approvals.length > 0 ? <ApprovalsCard approvals={flow.approvals} /> : null}
      <LogCard flowId={flow.flowId} />
      <ChainCard flowId={flow.flowId} />
      {reason.dialog}
    </Space>
  );
}

function ApprovalsCard({ approvals }: { approvals: readonly ApprovalSummary[] }) {
  const { t } = useTranslation();
  return (
    <Card title={t('signDetail.approvals')}>
      <ResponsiveTable<ApprovalSummary>
        rowKey="approvalId"
        size="small"
        pagination={false}
        dataSource={approvals}
        columns={[
          { title: t('signApproval.seal'), key: 'seal', render: (_, a) => a.sealName },
          { title: t('signApproval.applicant'), key: 'applicant', render: (_, a) => a.applicantName },
          {
            title: t('signCommon.status'),
            key: 'status',
            render: (_, a) => <ApprovalStatusTag status={a.status} />,
          },
          { title: t('signApproval.decider'), key: 'decider', render: (_, a) => a.deciderName ?? '' },
          { title: t('signApproval.decidedAt'), key: 'decidedAt', render: (_, a) => formatTime(a.decidedAt) },
        ]}
      />
    </Card>
  );
}

function LogCard({ flowId }: { flowId: string }) {
  const { t } = useTranslation();
  const log = useFlowLog(flowId);
  const list = log.data?.list ?? [];
  return (
    <Card title={t('signDetail.log')} loading={log.isPending}>
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Timeline
          data-testid="detail-log"
          items={list.map((e) => ({
            key: e.id,
            content: (
              <span data-testid="detail-log-entry" data-action={e.action}>
                <Typography.Text type="secondary">{formatTime(e.at)}</Typography.Text>{' '}
                <Typography.Text strong>{t(`signCommon.logAction.${e.action}`)}</Typography.Text> ·{' '}
                {e.actorName}
                {e.organizeName ? ` · ${e.organizeName}` : ''}
                {e.sealName ? ` · ${e.sealName}` : ''}
                {e.fileName ? ` · ${e.fileName}` : ''}
                {e.evidenceIndex !== null ? (
                  <Typography.Text type="secondary">
                    {' '}
                    · {t('signDetail.evidenceIndex', { index: e.evidenceIndex })}
                  </Typography.Text>
                ) : null}
              </span>
            ),
          }))}
        />
      )}
    </Card>
  );
}

/**
 * Who acted: the name when the server knows it (the flow's participants), else the opaque id; the id the
 * public evidence log holds stays visible beneath the name, whole in its tooltip.
 */
function ChainActor({ record }: { record: ChainRecord }) {
  const { t } = useTranslation();
  const name = record.actorName;
  if (!name || name === record.actor)
    return (
      <span data-testid="chain-actor" title={record.actor}>
        {record.actor}
      </span>
    );
  return (
    <div data-testid="chain-actor">
      <div data-testid="chain-actor-name">{name}</div>
      <Typography.Text
        type="secondary"
        style={{ fontFamily: 'monospace', fontSize: 11, whiteSpace: 'nowrap' }}
        title={t('signDetail.chain.actorId', { id: record.actor })}
        data-testid="chain-actor-id"
      >
        {shortHash(record.actor)}
      </Typography.Text>
    </div>
  );
}

function ChainCard({ flowId }: { flowId: string }) {
  const { t } = useTranslation();
  const chain = useChainRecord(flowId);
  const records = chain.data?.records ?? [];
  const download = (r: ChainRecord) =>
    saveBytes(
      JSON.stringify(r.bundle, null, 2),
      `evidence-${flowId}-${r.notaryLogId}.json`,
      'application/json',
    );
  const columns: ColumnsType<ChainRecord> = [
    { title: t('signDetail.chain.kind'), key: 'kind', width: 110, render: (_, r) => r.kind },
    { title: t('signDetail.chain.time'), key: 'time', width: 140, render: (_, r) => formatTime(r.chainTime) },
    {
      title: t('signDetail.chain.actor'),
      key: 'actor',
      width: 140,
      render: (_, r) => <ChainActor record={r} />,
    },
    {
      title: t('signDetail.chain.hashes'),
      key: 'hashes',
      width: 280,
      render: (_, r) => (
        <div style={{ fontFamily: 'monospace', fontSize: 12 }}>
          {r.fileHashBefore ? (
            <div title={r.fileHashBefore}>
              {t('signDetail.chain.before')} {shortHash(r.fileHashBefore)}
            </div>
          ) : null}
          {r.fileHash ? (
            <div title={r.fileHash}>
              {t('signDetail.chain.after')} {shortHash(r.fileHash)}
            </div>
          ) : null}
          <div title={r.chainHash}>
            {t('signDetail.chain.leaf')} {shortHash(r.chainHash)}
          </div>
        </div>
      ),
    },
    {
      title: t('signDetail.chain.certificate'),
      key: 'cert',
      width: 160,
      render: (_, r) => (
        <span style={{ fontFamily: 'monospace', fontSize: 12 }} title={r.certificate ?? ''}>
          {r.certificateSerial ? shortHash(r.certificateSerial) : shortHash(r.certificate)}
        </span>
      ),
    },
    {
      title: t('signDetail.chain.proof'),
      key: 'proof',
      width: 110,
      render: (_, r) => (
        <Button
          size="small"
          icon={<DownloadOutlined />}
          onClick={() => download(r)}
          data-testid="chain-download"
        >
          JSON
        </Button>
      ),
    },
  ];
  return (
    <Card title={t('signDetail.chain.title')} loading={chain.isPending} data-testid="detail-chain">
      <Typography.Paragraph type="secondary">
        {t('signDetail.chain.hint')}{' '}
        <Typography.Text code>openseal evidence verify &lt;file&gt;</Typography.Text>
      </Typography.Paragraph>
      {chain.data ? (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('signDetail.chain.treeHead', { size: chain.data.treeHead.treeSize })}{' '}
          <Typography.Text code>{shortHash(chain.data.treeHead.rootHash)}</Typography.Text>
        </Typography.Paragraph>
      ) : null}
      <ResponsiveTable<ChainRecord>
        rowKey="notaryLogId"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={records}
        onRow={(r) =>
          ({ 'data-testid': 'chain-record', 'data-kind': r.kind }) as HTMLAttributes<HTMLTableRowElement>
        }
      />
    </Card>
  );
}
