import { Button, Descriptions, Empty, Result, Table, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { handleApiError } from '../../../lib/api-error-handler';
import type { PageProps } from '../../../lib/page';
import { fileUrl, useAuditDetail, useRecords, type RealNameAuditDetail } from '../api/realname';
import { SandboxNotice } from '../components/sandbox-tag';
import { StepTag } from '../components/step-tag';
import { normaliseLanguage } from '../../../lib/language';
import { useFlowParam } from '../model/flow-param';
import { reasonText } from '../model/reason';

/** realNameAuditDetail (organisation and person): the record of one flow and its history; without a flow, the list. */
export function RealNameAuditDetailPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [flowId] = useFlowParam();
  const isPerson = route.path.startsWith('/userCenter/infoPersonal');
  const back = isPerson ? '/userCenter/infoPersonal' : '/userCenter/infoEnt';
  return (
    <div className="os-page" data-testid="realname-audit-detail-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback={back} />
      <div className="os-card">
        {flowId ? <Detail flowId={flowId} /> : <Records organizeType={isPerson ? 2 : 1} />}
      </div>
    </div>
  );
}

function Records({ organizeType }: { organizeType: 1 | 2 }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const records = useRecords();
  if (!records.data) return records.isError ? <Empty /> : <PageLoading />;
  const list = records.data.list.filter((r) => r.organizeType === organizeType);
  return (
    <Table
      rowKey="flowId"
      dataSource={list}
      pagination={false}
      data-testid="realname-records"
      onRow={(r) => ({
        onClick: () => void navigate(`?flowId=${encodeURIComponent(r.flowId)}`),
        style: { cursor: 'pointer' },
      })}
      columns={[
        {
          title: t('realNameFlow.createdAt'),
          dataIndex: 'createdAt',
          render: (v: string) => new Date(v).toLocaleString(i18n.language),
        },
        {
          title: t('realNameFlow.method'),
          dataIndex: 'method',
          render: (v: string | null) => (v ? t(`realNameFlow.method_${v}`, { defaultValue: v }) : '-'),
        },
        { title: t('realNameFlow.status'), dataIndex: 'step', render: (v: string) => <StepTag step={v} /> },
        {
          title: t('realNameFlow.reason'),
          dataIndex: 'reason',
          render: (v: string | null) => (v ? reasonText(v, normaliseLanguage(i18n.language)) : '-'),
        },
      ]}
    />
  );
}

const ACTOR_COLOR = { person: 'blue', operator: 'orange', system: 'gray' } as const;

function Detail({ flowId }: { flowId: string }) {
  const { t, i18n } = useTranslation();
  const detail = useAuditDetail(flowId);
  if (!detail.data)
    return detail.isError ? (
      <Result status="warning" title={t('realNameFlow.loadFailed')} />
    ) : (
      <PageLoading />
    );
  const d: RealNameAuditDetail = detail.data;
  const r = d.record;
  const time = (v: string | null) => (v ? new Date(v).toLocaleString(i18n.language) : '-');
  const reason = (v: string) => reasonText(v, normaliseLanguage(i18n.language));
  const open = async (fileKey: string) => {
    try {
      const { url } = await fileUrl(fileKey);
      window.open(url, '_blank', 'noopener');
    } catch (error) {
      handleApiError(error);
    }
  };
  const material = (key: string | null, testId: string) =>
    key ? (
      <Button type="link" size="small" onClick={() => void open(key)} data-testid={testId}>
        {t('realNameFlow.viewFile')}
      </Button>
    ) : (
      '-'
    );
  const isOrg = d.organizeType === 1;
  return (
    <div data-testid="realname-detail" data-status={d.status} data-step={d.step}>
      <SandboxNotice sandbox={d.sandbox} />
      <Descriptions column={1} bordered size="middle" styles={{ label: { width: 180 } }}>
        <Descriptions.Item label={t('realNameFlow.status')}>
          <StepTag step={d.step} testId="realname-detail-status" />
        </Descriptions.Item>
        <Descriptions.Item label={t('realNameFlow.method')}>
          {d.method ? t(`realNameFlow.method_${d.method}`, { defaultValue: d.method }) : '-'}
        </Descriptions.Item>
        {isOrg ? (
          <>
            <Descriptions.Item label={t('realNameFlow.orgName')}>{r.orgName ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('realNameFlow.uscc')}>{r.uscc ?? '-'}</Descriptions.Item>
          </>
        ) : null}
        <Descriptions.Item label={isOrg ? t('realNameFlow.legalName') : t('realNameFlow.name')}>
          {r.name ?? '-'}
        </Descriptions.Item>
        <Descriptions.Item label={isOrg ? t('realNameFlow.legalIdNumber') : t('realNameFlow.idNumber')}>
          {r.idNumber ?? '-'}
        </Descriptions.Item>
        {r.mobile ? <Descriptions.Item label={t('realNameFlow.mobile')}>{r.mobile}</Descriptions.Item> : null}
        {r.bankAccount ? (
          <Descriptions.Item label={t('realNameFlow.bankAccount')}>{r.bankAccount}</Descriptions.Item>
        ) : null}
        {d.method === 'manual' ? (
          <>
            <Descriptions.Item label={t('realNameFlow.licence')}>
              {material(r.licenceFileKey, 'realname-detail-licence')}
            </Descriptions.Item>
            <Descriptions.Item label={t('realNameFlow.authorisation')}>
              {material(r.authorisationFileKey, 'realname-detail-authorisation')}
            </Descriptions.Item>
          </>
        ) : null}
        {d.reason ? (
          <Descriptions.Item label={t('realNameFlow.reason')}>
            <Typography.Text type="danger" data-testid="realname-detail-reason">
              {reason(d.reason)}
            </Typography.Text>
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t('realNameFlow.createdAt')}>{time(r.createdAt)}</Descriptions.Item>
        <Descriptions.Item label={t('realNameFlow.completedAt')}>{time(r.completedAt)}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('realNameFlow.history')}
      </Typography.Title>
      <Timeline
        data-testid="realname-history"
        items={d.history.map((h, i) => ({
          key: i,
          color: ACTOR_COLOR[h.actorType],
          content: (
            <div data-testid="realname-history-item" data-to={h.toStatus} data-actor={h.actorType}>
              <StepTag step={h.toStatus} />{' '}
              <Typography.Text>
                {t(`realNameFlow.actor_${h.actorType}`)}
                {h.actorName ? ` · ${h.actorName}` : ''}
              </Typography.Text>{' '}
              <Typography.Text type="secondary">{time(h.at)}</Typography.Text>
              {h.reason ? (
                <div>
                  <Typography.Text type="danger">
                    {t('realNameFlow.reasonIs', { reason: reason(h.reason) })}
                  </Typography.Text>
                </div>
              ) : null}
            </div>
          ),
        }))}
      />
    </div>
  );
}
