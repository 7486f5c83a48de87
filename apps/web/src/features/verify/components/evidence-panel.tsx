import { DownloadOutlined, InfoCircleFilled, SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Descriptions, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useSha256, useVerifyEvidence } from '../api/verify';
import {
  bundleUrl,
  openedFacts,
  type CheckOutcome,
  type EvidenceRecord,
  type RecordCheck,
} from '../model/evidence-check';
import { formatDateTime } from '../model/format';
import { TONE_ICONS } from './findings';

function CheckLine({ outcome, text, testId }: { outcome: CheckOutcome; text: string; testId?: string }) {
  const tone = outcome === 'ok' ? 'valid' : outcome === 'fail' ? 'invalid' : 'info';
  const Icon = tone === 'info' ? InfoCircleFilled : TONE_ICONS[tone];
  return (
    <li className={`os-verify-tone--${tone}`} data-testid={testId} data-outcome={outcome}>
      <Icon style={{ color: 'var(--tone)' }} />
      <span>{text}</span>
    </li>
  );
}

const fieldKey = (field: string) => field.replace(/\./g, '_');

function RecordBlock({
  record,
  role,
  check,
  reportId,
}: {
  record: EvidenceRecord;
  role: 'signing' | 'verification';
  check: RecordCheck | undefined;
  reportId: string;
}) {
  const { t } = useTranslation();
  const c = (name: 'leafHash' | 'openings' | 'fileHash') => check?.[name] ?? 'none';
  const items = [
    {
      key: 'kind',
      label: t('verify.evidence.kind'),
      children: <span className="os-verify-mono">{record.kind ?? '—'}</span>,
    },
    {
      key: 'leaf',
      label: t('verify.evidence.leafHash'),
      children: <span className="os-verify-mono">{record.leafHash}</span>,
    },
    ...openedFacts(record).map((f) => ({
      key: f.field,
      label: t(`verify.evidence.field.${fieldKey(f.field)}`, { defaultValue: f.field }),
      children: <span className="os-verify-mono">{f.value}</span>,
    })),
    {
      key: 'path',
      label: t('verify.evidence.path'),
      children: t('verify.evidence.pathLength', { count: record.inclusionPath.length }),
    },
    ...(check?.computedRoot
      ? [
          {
            key: 'root',
            label: t('verify.evidence.computedRoot'),
            children: <span className="os-verify-mono">{check.computedRoot}</span>,
          },
        ]
      : []),
  ];
  return (
    <div
      className={`os-verify-evidence__record os-verify-tone--${check ? (check.ok ? 'valid' : 'invalid') : 'info'}`}
      data-testid={`evidence-record-${record.leafIndex}`}
      data-role={role}
      data-inclusion={check?.inclusion ?? 'pending'}
      data-ok={check ? check.ok : undefined}
    >
      <div className="os-verify-evidence__head">
        <strong>
          {t(role === 'signing' ? 'verify.evidence.signingRecord' : 'verify.evidence.verificationRecord', {
            index: record.leafIndex,
          })}
        </strong>
        <Button
          size="small"
          icon={<DownloadOutlined />}
          href={bundleUrl(reportId, record.leafIndex)}
          download={`evidence-${record.leafIndex}.json`}
          data-testid={`evidence-bundle-${record.leafIndex}`}
        >
          {t('verify.evidence.download')}
        </Button>
      </div>
      {check ? (
        <ul className="os-verify-findings">
          <CheckLine
            outcome={check.inclusion}
            text={t(`verify.evidence.check.inclusion.${check.inclusion === 'ok' ? 'ok' : 'fail'}`)}
            testId={`evidence-inclusion-${record.leafIndex}`}
          />
          <CheckLine outcome={c('leafHash')} text={t(`verify.evidence.check.leafHash.${c('leafHash')}`)} />
          <CheckLine outcome={c('openings')} text={t(`verify.evidence.check.openings.${c('openings')}`)} />
          {c('fileHash') !== 'none' ? (
            <CheckLine outcome={c('fileHash')} text={t(`verify.evidence.check.fileHash.${c('fileHash')}`)} />
          ) : null}
          {!check.sameHead ? (
            <CheckLine outcome="fail" text={t('verify.evidence.check.sameHead.fail')} />
          ) : null}
        </ul>
      ) : null}
      <Descriptions size="small" column={1} layout="vertical" items={items} />
    </div>
  );
}

/**
 * "Verification with blockchain evidence" (spec section 1): the evidence log's records of the verified
 * file — the platform's signing acts whose output is this file, and this verification — each checked in
 * the browser against the latest signed tree head, with its proof bundle to download.
 */
export function EvidencePanel({
  report,
  bytes = null,
}: {
  report: { reportId: string; sha256: string };
  /** The uploaded file, when the page has it: its SHA-256 is computed here and must match the report's. */
  bytes?: Uint8Array | null;
}) {
  const { t } = useTranslation();
  const local = useSha256(bytes, report.reportId);
  const fileSha256 = bytes ? local.data : report.sha256;
  const { evidence, check } = useVerifyEvidence(report.reportId, fileSha256);
  const data = evidence.data;
  const result = check.data;
  const localOk = bytes && local.data ? local.data === report.sha256 : null;
  const ok = result ? result.ok && localOk !== false : null;
  const state = ok === null ? 'pending' : ok ? 'ok' : 'fail';

  let body: React.ReactNode;
  if (evidence.isError) {
    const err = evidence.error;
    body = (
      <p className="os-verify-evidence__error" data-testid="verify-evidence-error">
        {t('verify.evidence.loadFailed')}
        {isApiError(err) && err.kind === 'api' ? `: ${err.message}` : ''}
      </p>
    );
  } else if (!data) {
    body = <Spin size="small" />;
  } else {
    const signedHere = data.signing.length > 0;
    const records = new Map((result?.records ?? []).map((r) => [r.leafIndex, r]));
    body = (
      <>
        <p
          className={`os-verify-evidence__lead os-verify-tone--${signedHere ? 'valid' : 'info'}`}
          data-testid="verify-evidence-lead"
        >
          {signedHere
            ? t('verify.evidence.signedHere', { count: data.signing.length })
            : t('verify.evidence.notSignedHere')}
        </p>
        {result ? (
          <ul className="os-verify-findings">
            <CheckLine
              outcome={result.treeHeadSignature ? 'ok' : 'fail'}
              text={t(`verify.evidence.check.signature.${result.treeHeadSignature ? 'ok' : 'fail'}`)}
              testId="evidence-tree-head-signature"
            />
            <CheckLine
              outcome={result.keyId ? 'ok' : 'fail'}
              text={t(`verify.evidence.check.keyId.${result.keyId ? 'ok' : 'fail'}`)}
            />
            {localOk !== null ? (
              <CheckLine
                outcome={localOk ? 'ok' : 'fail'}
                text={t(`verify.evidence.check.localHash.${localOk ? 'ok' : 'fail'}`)}
                testId="evidence-local-hash"
              />
            ) : null}
          </ul>
        ) : (
          <p className="os-verify-evidence__muted">
            <Spin size="small" /> {t('verify.evidence.checking')}
          </p>
        )}
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, sm: 1, md: 2 }}
          title={t('verify.evidence.treeHead')}
          className="os-verify-evidence__tree"
          data-testid="evidence-tree-head"
          items={[
            { key: 'size', label: t('verify.evidence.treeSize'), children: data.treeHead.treeSize },
            {
              key: 'at',
              label: t('verify.evidence.signedAt'),
              children: formatDateTime(new Date(data.treeHead.timestamp).toISOString()),
            },
            {
              key: 'root',
              label: t('verify.evidence.rootHash'),
              children: <span className="os-verify-mono">{data.treeHead.rootHash}</span>,
            },
            {
              key: 'key',
              label: t('verify.evidence.logKey'),
              children: <span className="os-verify-mono">{data.logKeyId}</span>,
            },
          ]}
        />
        <div className="os-verify-evidence__records">
          {data.signing.map((r) => (
            <RecordBlock
              key={r.leafIndex}
              record={r}
              role="signing"
              check={records.get(r.leafIndex)}
              reportId={report.reportId}
            />
          ))}
          <RecordBlock
            record={data.verification}
            role="verification"
            check={records.get(data.verification.leafIndex)}
            reportId={report.reportId}
          />
        </div>
        <p className="os-verify-evidence__muted">{t('verify.evidence.bundleHint')}</p>
      </>
    );
  }

  return (
    <section
      className="os-card os-verify-evidence"
      data-testid="verify-evidence"
      data-check={state}
      data-signed-here={data ? data.signing.length > 0 : undefined}
    >
      <div className="os-verify-evidence__title">
        <SafetyCertificateOutlined />
        <h3>{t('verify.evidence.title')}</h3>
        {data ? (
          <Tag
            color={state === 'ok' ? 'success' : state === 'fail' ? 'error' : 'processing'}
            data-testid="verify-evidence-state"
            style={{ marginInlineEnd: 0 }}
          >
            {state === 'ok'
              ? t('verify.evidence.held')
              : state === 'fail'
                ? t('verify.evidence.failed')
                : t('verify.evidence.checking')}
          </Tag>
        ) : null}
      </div>
      <p className="os-verify-evidence__muted">{t('verify.evidence.intro')}</p>
      {body}
    </section>
  );
}
