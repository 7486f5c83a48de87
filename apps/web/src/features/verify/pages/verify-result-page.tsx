import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Space, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import type { PageProps } from '../../../lib/page';
import { useVerifyReport } from '../api/verify';
import { EvidencePanel } from '../components/evidence-panel';
import { FileFacts } from '../components/file-facts';
import { SignatureCard } from '../components/signature-card';
import { VerdictPanel } from '../components/verdict-panel';
import { numberSignatures, reportPdfUrl, uploadPath } from '../model/verify-report';
import '../components/verify.css';
import { PhoneQrButton } from '../../../components/qr-code';
import { useIsMobile } from '../../../hooks/use-is-mobile';
import { mobileHref } from '../../../lib/device';

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
  const isMobile = useIsMobile();
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
              {isMobile ? null : (
                <PhoneQrButton
                  address={mobileHref(
                    '/verifyContractResult',
                    `?reportId=${encodeURIComponent(report.reportId)}`,
                  )}
                  caption={t('qrCode.verifyCaption')}
                  testId="verify-phone-qr"
                />
              )}
            </Space>
          }
        />
        <div className="os-card">
          <FileFacts report={report} />
        </div>
        {numbered.length > 0 ? (
          <section data-testid="verify-result-signatures">
            <h3 className="os-verify-section-title">{t('verify.signatures', { count: numbered.length })}</h3>
            <div className="os-verify-result-cards">
              {numbered.map((item) => (
                <SignatureCard key={item.index} item={item} revisions={report.revisions} />
              ))}
            </div>
          </section>
        ) : null}
        <EvidencePanel report={report} />
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
