import { CheckCircleFilled, CloseCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Spin, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { BackHeader } from '../../components/back-header';
import { apiGet } from '../../lib/api-client';
import type { PageProps } from '../page-props';

interface Check {
  ok: boolean;
  detail: string;
  ms: number | null;
}
interface SelfCheck {
  version: string;
  checkedAt: string;
  database: Check & { dialect: 'pglite' | 'postgres'; migration: string | null };
  pki: (Check & {
    name: 'root' | 'issuing' | 'timestamp';
    subject: string | null;
    notAfter: string | null;
  })[];
  providers: { kind: string; mode: 'sandbox' | 'live'; name: string }[];
}

const Mark = ({ ok }: { ok: boolean }) =>
  ok ? (
    <CheckCircleFilled style={{ color: 'var(--os-success, #52c41a)' }} />
  ) : (
    <CloseCircleFilled style={{ color: 'var(--os-error, #ff4d4f)' }} />
  );

/**
 * /pageTest: the deployment's self-check (GET /v1/config/selfCheck) — the version, the database, the
 * platform CAs and timestamp unit, and which outside services run as sandboxes — for the people who run it.
 */
export function PageTestPage({ route }: PageProps) {
  const { t } = useTranslation();
  const check = useQuery({
    queryKey: ['selfCheck'],
    queryFn: () => apiGet<SelfCheck>('/v1/config/selfCheck'),
    staleTime: 0,
  });
  const d = check.data;
  const allOk = d ? d.database.ok && d.pki.every((p) => p.ok) : false;
  return (
    <div className="os-page" data-testid="page-test" data-ok={d ? String(allOk) : undefined}>
      <BackHeader
        title={t(route.titleKey, { ns: 'route' })}
        extra={
          <Button icon={<ReloadOutlined />} loading={check.isFetching} onClick={() => void check.refetch()}>
            {t('pageTest.again')}
          </Button>
        }
      />
      {!d ? (
        check.isError ? (
          <Alert type="error" showIcon title={t('pageTest.failed')} />
        ) : (
          <Spin style={{ display: 'block', padding: 48 }} />
        )
      ) : (
        <>
          <Alert
            type={allOk ? 'success' : 'error'}
            showIcon
            title={allOk ? t('pageTest.allOk') : t('pageTest.someFailed')}
            style={{ marginBottom: 16 }}
            data-testid="page-test-summary"
          />
          <div className="os-card">
            <Descriptions column={{ xs: 1, md: 2 }} size="small" title={t('pageTest.deployment')}>
              <Descriptions.Item label={t('pageTest.version')}>{d.version}</Descriptions.Item>
              <Descriptions.Item label={t('pageTest.checkedAt')}>
                {new Date(d.checkedAt).toLocaleString()}
              </Descriptions.Item>
              <Descriptions.Item label={t('pageTest.database')}>
                <span data-testid="page-test-db" data-ok={String(d.database.ok)}>
                  <Mark ok={d.database.ok} />{' '}
                  {d.database.dialect === 'pglite' ? t('pageTest.pglite') : 'PostgreSQL'} ·{' '}
                  {d.database.ms ?? '—'} ms
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('pageTest.migration')}>
                {d.database.migration ?? '—'}
              </Descriptions.Item>
            </Descriptions>
          </div>
          <div className="os-card">
            <h3>{t('pageTest.pki')}</h3>
            <Table
              rowKey="name"
              size="small"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={d.pki}
              data-testid="page-test-pki"
              columns={[
                { title: t('pageTest.item'), key: 'name', render: (_, p) => t(`pageTest.pkiName.${p.name}`) },
                { title: t('pageTest.state'), key: 'ok', render: (_, p) => <Mark ok={p.ok} /> },
                { title: t('pageTest.detail'), dataIndex: 'detail' },
                { title: t('pageTest.subject'), key: 'subject', render: (_, p) => p.subject ?? '—' },
                { title: 'ms', key: 'ms', render: (_, p) => p.ms ?? '—' },
              ]}
            />
          </div>
          <div className="os-card">
            <h3>{t('pageTest.providers')}</h3>
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }} data-testid="page-test-providers">
              {d.providers.map((p) => (
                <Tag
                  key={p.kind}
                  color={p.mode === 'sandbox' ? 'gold' : 'green'}
                  data-kind={p.kind}
                  data-mode={p.mode}
                >
                  {t(`pageTest.kind.${p.kind}`)}: {p.mode === 'sandbox' ? t('pageTest.sandbox') : p.name}
                </Tag>
              ))}
            </div>
          </div>
        </>
      )}
    </div>
  );
}
