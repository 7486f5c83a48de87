import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Space, Spin, Table, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import type { PageProps } from '../../../lib/page';
import { useVerifyReport } from '../api/verify';
import { FileFacts } from '../components/file-facts';
import { VerdictPanel } from '../components/verdict-panel';
import { formatDateTime } from '../model/format';
import {
  commonName,
  numberSignatures,
  reportPdfUrl,
  uploadPath,
  type NumberedSignature,
} from '../model/verify-report';
import '../components/verify.css';

const TAG_COLOR = { valid: 'success', warning: 'warning', invalid: 'error' } as const;

/**
 * `/verifyContractResult?reportId=…` (and its embeddable `/independence` variant): the verdict of a kept
 * report, read from the server, so the page survives a reload and can be shared.
 */
export function VerifyResultPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const independence = route.path.endsWith('/independence');
  const reportId = params.get('reportId');
  const query = useVerifyReport(reportId);
  const numbered = useMemo(() => (query.data ? numberSignatures(query.data.signatures) : []), [query.data]);
  const again = (
    <Button
      icon={<ReloadOutlined />}
      data-testid="verify-again"
      onClick={() => void navigate(uploadPath(independence))}
    >
      {t('verify.verifyAnother')}
    </Button>
  );

  let body: React.ReactNode;
  if (!reportId) {
    body = (
      <Result
        status="warning"
        title={t('verify.missingId')}
        extra={again}
        data-testid="verify-result-error"
      />
    );
  } else if (query.isPending) {
    body = (
      <div className="os-page-loading">
        <Spin size="large" />
      </div>
    );
  } else if (query.isError) {
    const err = query.error;
    const message = isApiError(err) && err.kind === 'api' ? err.message : t('verify.error.network');
    body = (
      <Result
        status={isApiError(err) && err.httpStatus === 404 ? '404' : 'error'}
        title={t('verify.loadFailed')}
        subTitle={message}
        data-testid="verify-result-error"
        extra={
          <Space>
            <Button onClick={() => void query.refetch()}>{t('verify.retry')}</Button>
            {again}
          </Space>
        }
      />
    );
  } else {
    const report = query.data;
    body = (
      <>
        <VerdictPanel
          report={report}
          big
          extra={
            <Space wrap>
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                href={reportPdfUrl(report.reportId)}
                download
                data-testid="verify-download"
              >
                {t('verify.download')}
              </Button>
              {again}
            </Space>
          }
        />
        <div className="os-card">
          <FileFacts report={report} />
        </div>
        {numbered.length > 0 ? (
          <div className="os-card">
            <Table<NumberedSignature>
              size="small"
              rowKey="index"
              pagination={false}
              data-testid="verify-result-signatures"
              title={() => <strong>{t('verify.signatures', { count: numbered.length })}</strong>}
              dataSource={numbered}
              scroll={{ x: 720 }}
              columns={[
                {
                  key: 'no',
                  title: '#',
                  width: 56,
                  render: (_, item) => (
                    <span className={`os-verify-no os-verify-tone--${item.tone}`}>{item.no}</span>
                  ),
                },
                {
                  key: 'signer',
                  title: t('verify.card.signer'),
                  render: (_, item) =>
                    item.sig.signer ?? commonName(item.sig.signerSubject) ?? item.sig.field,
                },
                {
                  key: 'issuer',
                  title: t('verify.card.issuer'),
                  render: (_, item) => commonName(item.sig.signerIssuer) ?? t('verify.none'),
                },
                {
                  key: 'time',
                  title: t('verify.card.signingTime'),
                  width: 170,
                  render: (_, item) => formatDateTime(item.sig.timestamp?.time ?? item.sig.signingTime),
                },
                {
                  key: 'position',
                  title: t('verify.card.position'),
                  width: 110,
                  render: (_, item) =>
                    item.visible ? t('verify.card.positionValue', { page: item.sig.page }) : t('verify.none'),
                },
                {
                  key: 'tone',
                  title: t('verify.resultTitle'),
                  width: 140,
                  render: (_, item) => (
                    <Tag color={TAG_COLOR[item.tone]} data-testid={`verify-result-tone-${item.no}`}>
                      {t(`verify.tone.${item.tone}`)}
                    </Tag>
                  ),
                },
              ]}
            />
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div
      className={`os-verify${independence ? ' os-verify--embedded' : ''}`}
      data-testid="verify-result-page"
      data-independence={independence || undefined}
    >
      {body}
    </div>
  );
}
