import { DownloadOutlined, FileSearchOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Result, Space, Spin } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PdfViewer, type PdfPageOverlay } from '../../../components/pdf-viewer';
import { isApiError } from '../../../lib/api-client';
import type { PageProps } from '../../../lib/page';
import { uploadForVerify, useVerifyConfig, VERIFY_KEY } from '../api/verify';
import { EvidencePanel } from '../components/evidence-panel';
import { SignatureBoxes } from '../components/signature-boxes';
import { SignatureCard } from '../components/signature-card';
import { VerdictPanel } from '../components/verdict-panel';
import { VerifyTopBar } from '../components/verify-top-bar';
import { VerifyUpload } from '../components/verify-upload';
import { numberSignatures, reportPdfUrl, resultPath, type VerifyReport } from '../model/verify-report';
import '../components/verify.css';
import { RatingPrompt } from '../../../components/rating-prompt';

type State =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string }
  | { kind: 'done'; report: VerifyReport; bytes: Uint8Array }
  | { kind: 'error'; message: string };

/**
 * `/verifySign` and `/verifySign/independence`: anyone uploads a signed PDF and sees each signature where
 * it sits on its page, numbered and coloured by verdict, beside one card per signature with its report.
 * The independence variant is the embeddable one: no site header, bar, banner or footer.
 */
export function VerifySignPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const independence = route.path.endsWith('/independence');
  const config = useVerifyConfig();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [activeNo, setActiveNo] = useState<number | null>(null);
  const cards = useRef(new Map<number, HTMLDivElement>());

  const start = useCallback(
    async (file: File, bytes: Uint8Array) => {
      setState({ kind: 'uploading', name: file.name });
      setActiveNo(null);
      try {
        const report = await uploadForVerify(file, file.name);
        queryClient.setQueryData([...VERIFY_KEY, 'report', report.reportId], report);
        setState({ kind: 'done', report, bytes });
      } catch (err) {
        const message = isApiError(err) && err.kind === 'api' ? err.message : t('verify.error.network');
        setState({ kind: 'error', message });
      }
    },
    [queryClient, t],
  );

  const report = state.kind === 'done' ? state.report : null;
  const numbered = useMemo(() => (report ? numberSignatures(report.signatures) : []), [report]);

  const selectFromCard = (no: number) => {
    setActiveNo(no);
    document
      .querySelector(`[data-testid="signature-box-${no}"]`)
      ?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  };
  const selectFromBox = useCallback((no: number) => {
    setActiveNo(no);
    cards.current.get(no)?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, []);

  const source = useMemo(() => (state.kind === 'done' ? { data: state.bytes } : null), [state]);
  const overlay = useCallback(
    (page: PdfPageOverlay) => (
      <SignatureBoxes page={page} items={numbered} activeNo={activeNo} onSelect={selectFromBox} />
    ),
    [numbered, activeNo, selectFromBox],
  );

  const upload = (
    <VerifyUpload
      maxBytes={config.maxBytes}
      disabled={state.kind === 'uploading'}
      onFile={(file, bytes) => void start(file, bytes)}
      onRefused={(message) => setState({ kind: 'error', message })}
    />
  );

  return (
    <div data-testid="verify-sign-page" data-independence={independence || undefined}>
      {independence ? null : <VerifyTopBar />}
      <div
        className={`os-verify${independence ? ' os-verify--embedded' : ''}`}
        style={{ padding: independence ? undefined : 24 }}
      >
        {independence ? null : (
          <section className="os-verify-banner" data-testid="verify-banner">
            <h1>{t('verify.bannerTitle')}</h1>
            <p>{t('verify.bannerText')}</p>
            <div className="os-verify-banner__steps">
              <span>{t('verify.steps.upload')}</span>
              <span>{t('verify.steps.verify')}</span>
              <span>{t('verify.steps.report')}</span>
            </div>
          </section>
        )}

        {state.kind === 'error' ? (
          <Alert
            type="error"
            showIcon
            closable
            title={t('verify.error.title')}
            description={state.message}
            data-testid="verify-error"
            onClose={() => setState({ kind: 'idle' })}
          />
        ) : null}

        {state.kind === 'uploading' ? (
          <div
            className="os-card"
            style={{ textAlign: 'center', padding: 48 }}
            data-testid="verify-uploading"
          >
            <Spin size="large" description={t('verify.upload.verifying', { name: state.name })}>
              <div style={{ height: 40 }} />
            </Spin>
          </div>
        ) : report ? null : (
          <div className="os-card">{upload}</div>
        )}

        {report && source ? (
          <>
            <VerdictPanel
              report={report}
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
                  <Button
                    icon={<FileSearchOutlined />}
                    data-testid="verify-to-result"
                    onClick={() => void navigate(resultPath(report.reportId, independence))}
                  >
                    {t('verify.toResult')}
                  </Button>
                  <Button
                    icon={<ReloadOutlined />}
                    data-testid="verify-again"
                    onClick={() => {
                      setState({ kind: 'idle' });
                      setActiveNo(null);
                    }}
                  >
                    {t('verify.upload.again')}
                  </Button>
                </Space>
              }
            />
            {report.signatures.length > 0 ? <RatingPrompt scene="verify" bizId={report.reportId} /> : null}
            {report.signatures.length === 0 ? (
              <Result
                status="warning"
                title={t('verify.noSignatures.title')}
                subTitle={t('verify.noSignatures.text')}
                data-testid="verify-no-signatures"
              />
            ) : null}
            <div className="os-verify-workspace">
              <div className="os-verify-document">
                <PdfViewer source={source} renderOverlay={overlay} maxWidth={860} testId="verify-viewer" />
              </div>
              {numbered.length > 0 ? (
                <aside
                  className="os-verify-cards"
                  aria-label={t('verify.signatures', { count: numbered.length })}
                >
                  <strong>{t('verify.signatures', { count: numbered.length })}</strong>
                  {numbered.map((item) => (
                    <SignatureCard
                      key={item.index}
                      ref={(el) => {
                        if (el) cards.current.set(item.no, el);
                        else cards.current.delete(item.no);
                      }}
                      item={item}
                      revisions={report.revisions}
                      active={activeNo === item.no}
                      onSelect={() => selectFromCard(item.no)}
                    />
                  ))}
                </aside>
              ) : null}
            </div>
            <EvidencePanel report={report} bytes={state.kind === 'done' ? state.bytes : null} />
          </>
        ) : null}
      </div>
    </div>
  );
}
