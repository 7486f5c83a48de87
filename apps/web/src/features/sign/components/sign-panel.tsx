import { AuditOutlined, EditOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Input, Radio, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { useSignOptions, signTask } from '../api/flows';
import { requestApproval, useTaskApproval } from '../api/approvals';
import type { FlowDetail, SignableSeal, SignTaskResponse } from '../api/types';
import {
  encodeFrontData,
  lockedFrom,
  neededCodes,
  toRequestPlacements,
  type DraftPlacement,
  type FrontData,
  type PlacementKind,
} from '../model/placement-draft';
import { sealUse } from '../model/status';
import { FlowFileTabs } from './flow-file-view';
import { PageOverlay, PlacementPalette, PlacementProvider, type PlacementImages } from './placement-layer';
import { ApprovalStatusTag } from './status-tags';
import { WillAuthDialog } from './will-auth-dialog';
import './sign-panel.css';

/**
 * Signing one task: the flow's files in the viewer with the placement layer, the seal and signature to
 * use (with what each seal's access allows: direct, authorised with uses left, approval needed, approved
 * or refused), will-auth by SMS, then the signature. A seal that needs approval offers "request seal-use
 * approval" with a reason instead of signing. Coming back from the stand-alone will-auth page, the saved
 * placements are restored and the signature is made at once.
 */
export function SignPanel({
  flow,
  taskId,
  redirectPath,
  restored,
  onSigned,
  onApprovalRequested,
}: {
  flow: FlowDetail;
  taskId: string;
  /** Where the stand-alone will-auth page returns to. */
  redirectPath: string;
  /** State saved before the stand-alone will-auth page, with the confirmed will-auth record. */
  restored?: { data: FrontData; willBizId: string } | null;
  onSigned: (result: SignTaskResponse) => void;
  onApprovalRequested?: () => void;
}) {
  const { t } = useTranslation();
  const options = useSignOptions(flow.flowId, taskId);
  const approval = useTaskApproval(flow.flowId, taskId);
  const [sealCode, setSealCode] = useState<string | null>(restored?.data.sealCode ?? null);
  const [signatureCode, setSignatureCode] = useState<string | null>(restored?.data.signatureCode ?? null);
  const [placements, setPlacements] = useState<DraftPlacement[]>(restored?.data.placements ?? []);
  const [activeFile, setActiveFile] = useState<string | undefined>(flow.files[0]?.fileId);
  const [willOpen, setWillOpen] = useState(false);
  const [signing, setSigning] = useState(false);
  const [approvalReason, setApprovalReason] = useState('');
  const [requesting, setRequesting] = useState(false);
  const initialised = useRef(Boolean(restored));
  const autoSigned = useRef(false);

  const opts = options.data;
  const mine = flow.signers.find((s) => s.taskId === taskId);
  const fixed = (opts?.fixedPlacements.length ?? 0) > 0;

  // Defaults once the options arrive: the initiator's fixed positions, the first usable seal and signature.
  useEffect(() => {
    if (!opts || initialised.current) return;
    initialised.current = true;
    if (opts.fixedPlacements.length > 0) setPlacements(lockedFrom(opts.fixedPlacements));
    const usable = opts.seals.find((s) => sealUse(s) !== 'blocked') ?? opts.seals[0];
    setSealCode(usable?.sealCode ?? null);
    setSignatureCode(opts.signatures[0]?.sealCode ?? null);
  }, [opts]);

  const seal = opts?.seals.find((s) => s.sealCode === sealCode) ?? null;
  const signature = opts?.signatures.find((s) => s.sealCode === signatureCode) ?? null;
  const images = useMemo<PlacementImages>(
    () => ({
      seal: seal ? { url: seal.imageUrl, widthMm: seal.widthMm, heightMm: seal.heightMm } : null,
      signature: signature
        ? { url: signature.imageUrl, widthMm: signature.widthMm, heightMm: signature.heightMm }
        : null,
    }),
    [seal, signature],
  );
  const pageCounts = useMemo(
    () => Object.fromEntries(flow.files.map((f) => [f.fileId, f.pages ?? 1])),
    [flow.files],
  );
  const kinds: PlacementKind[] = [];
  if (opts?.seals.length) kinds.push('seal', 'ridingSeam');
  if (opts?.signatures.length) kinds.push('signature');

  const needs = neededCodes(placements);
  const use = seal ? sealUse(seal) : null;
  const missing =
    placements.length === 0
      ? t('signPlace.placeFirst')
      : needs.seal && !seal
        ? t('signPlace.chooseSeal')
        : needs.signature && !signature
          ? t('signPlace.chooseSignature')
          : opts?.needSignature && !needs.signature
            ? t('signPlace.signatureNeeded')
            : null;

  const doSign = async (willBizId: string, state?: FrontData) => {
    setWillOpen(false);
    setSigning(true);
    try {
      const list = state?.placements ?? placements;
      const codes = neededCodes(list);
      const result = await signTask({
        flowId: flow.flowId,
        taskId,
        willBizId,
        sealCode: codes.seal ? (state?.sealCode ?? sealCode ?? undefined) : undefined,
        signatureCode: codes.signature ? (state?.signatureCode ?? signatureCode ?? undefined) : undefined,
        placements: toRequestPlacements(list),
      });
      toastSuccess(t('signPlace.signed'));
      onSigned(result);
    } catch (error) {
      handleApiError(error);
    } finally {
      setSigning(false);
    }
  };

  // Back from the stand-alone will-auth page: sign with the saved placements once.
  useEffect(() => {
    if (!restored || autoSigned.current) return;
    autoSigned.current = true;
    void doSign(restored.willBizId, restored.data);
  }, [restored]);

  const askApproval = async () => {
    if (!seal) return;
    setRequesting(true);
    try {
      await requestApproval(flow.flowId, taskId, {
        sealCode: seal.sealCode,
        placements: toRequestPlacements(placements),
        reason: approvalReason.trim() || undefined,
      });
      toastSuccess(t('signPlace.approvalRequested'));
      await approval.refetch();
      onApprovalRequested?.();
    } catch (error) {
      handleApiError(error);
    } finally {
      setRequesting(false);
    }
  };

  if (options.isPending) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (!opts) return <Empty description={t('signPlace.noOptions')} />;

  const latestApproval = approval.data ?? null;
  const waitingApproval = latestApproval?.status === 'inApproval';

  return (
    <PlacementProvider
      placements={placements}
      onChange={setPlacements}
      images={images}
      pageCounts={pageCounts}
      editable={!fixed && !signing && !waitingApproval}
    >
      <div className="os-sign-panel" data-testid="sign-panel">
        <div className="os-sign-panel__doc">
          <FlowFileTabs
            flowId={flow.flowId}
            files={flow.files}
            active={activeFile}
            onActive={setActiveFile}
            overlay={(file, page, size, scale) => (
              <PageOverlay fileId={file.fileId} page={page} size={size} scale={scale} />
            )}
          />
        </div>
        <div className="os-sign-panel__side">
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {opts.seals.length === 0 && opts.signatures.length === 0 ? (
              <Alert
                type="warning"
                showIcon
                data-testid="sign-no-seal"
                title={t(mine?.type === 'organization' ? 'signPlace.noSealOrg' : 'signPlace.noSealPerson')}
                action={
                  <Link to="/sealService/applySeal">
                    <Button size="small">{t('signPlace.applySeal')}</Button>
                  </Link>
                }
              />
            ) : null}
            {opts.seals.length > 0 ? (
              <Card size="small" title={t('signPlace.seal')}>
                <SealChoice seals={opts.seals} value={sealCode} onChange={setSealCode} testId="seal-choice" />
              </Card>
            ) : null}
            {opts.signatures.length > 0 ? (
              <Card size="small" title={t('signPlace.signature')}>
                <SealChoice
                  seals={opts.signatures}
                  value={signatureCode}
                  onChange={setSignatureCode}
                  testId="signature-choice"
                />
              </Card>
            ) : opts.needSignature ? (
              <Alert type="warning" showIcon title={t('signPlace.noSignature')} />
            ) : null}
            <Card size="small" title={t('signPlace.place')}>
              {fixed ? (
                <Alert type="info" showIcon title={t('signPlace.fixed')} />
              ) : (
                <>
                  <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                    {t('signPlace.dragHint')}
                  </Typography.Paragraph>
                  <PlacementPalette kinds={kinds} />
                </>
              )}
              <div style={{ marginTop: 8 }} data-testid="placement-count" data-count={placements.length}>
                <Typography.Text type="secondary">
                  {t('signPlace.count', { count: placements.length })}
                </Typography.Text>
              </div>
            </Card>
            {latestApproval ? (
              <Alert
                type={latestApproval.status === 'approved' ? 'success' : 'info'}
                showIcon
                data-testid="task-approval"
                data-status={latestApproval.status}
                title={
                  <span>
                    {t('signPlace.approvalOf', { seal: latestApproval.sealName })}{' '}
                    <ApprovalStatusTag status={latestApproval.status} />
                  </span>
                }
                description={latestApproval.decisionReason ?? undefined}
              />
            ) : null}
            {use === 'requestApproval' && !waitingApproval ? (
              <Card size="small" title={t('signPlace.approvalTitle')}>
                <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                  {t('signPlace.approvalHint')}
                </Typography.Paragraph>
                <Input.TextArea
                  rows={2}
                  maxLength={200}
                  value={approvalReason}
                  onChange={(e) => setApprovalReason(e.target.value)}
                  placeholder={t('signPlace.approvalReason')}
                  data-testid="approval-reason"
                />
                <Button
                  type="primary"
                  icon={<AuditOutlined />}
                  block
                  style={{ marginTop: 8 }}
                  disabled={placements.length === 0}
                  loading={requesting}
                  onClick={() => void askApproval()}
                  data-testid="approval-request"
                >
                  {t('signPlace.requestApproval')}
                </Button>
              </Card>
            ) : use === 'blocked' ? (
              <Alert type="error" showIcon title={t('signPlace.sealRefused')} />
            ) : waitingApproval ? null : (
              <>
                {missing ? <Typography.Text type="secondary">{missing}</Typography.Text> : null}
                <Button
                  type="primary"
                  size="large"
                  icon={<EditOutlined />}
                  block
                  disabled={missing !== null}
                  loading={signing}
                  onClick={() => setWillOpen(true)}
                  data-testid="sign-submit"
                >
                  {t('signPlace.signNow')}
                </Button>
              </>
            )}
          </Space>
        </div>
      </div>
      <WillAuthDialog
        taskId={taskId}
        open={willOpen}
        redirectUrl={redirectPath}
        frontData={() =>
          encodeFrontData({ flowId: flow.flowId, taskId, sealCode, signatureCode, placements })
        }
        onVerified={(willBizId) => void doSign(willBizId)}
        onCancel={() => setWillOpen(false)}
      />
    </PlacementProvider>
  );
}

function SealChoice({
  seals,
  value,
  onChange,
  testId,
}: {
  seals: readonly SignableSeal[];
  value: string | null;
  onChange: (code: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group value={value} onChange={(e) => onChange(String(e.target.value))} data-testid={testId}>
      <Space orientation="vertical">
        {seals.map((s) => (
          <Radio key={s.sealCode} value={s.sealCode} data-testid={`${testId}-option`} data-access={s.access}>
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
              <img src={s.imageUrl} alt="" style={{ width: 32, height: 32, objectFit: 'contain' }} />
              <span>
                <div>{s.name}</div>
                <Tag
                  color={accessColour(s.access)}
                  style={{ marginInlineEnd: 0 }}
                  data-testid="seal-access"
                  data-access={s.access}
                >
                  {s.access === 'authorised'
                    ? s.usesRemaining === null
                      ? t('signCommon.access.authorisedUnlimited')
                      : t('signCommon.access.authorised', { uses: s.usesRemaining })
                    : t(`signCommon.access.${s.access}`)}
                </Tag>
              </span>
            </span>
          </Radio>
        ))}
      </Space>
    </Radio.Group>
  );
}

function accessColour(access: SignableSeal['access']): string {
  switch (access) {
    case 'direct':
      return 'green';
    case 'authorised':
    case 'approved':
      return 'cyan';
    case 'approval':
      return 'purple';
    case 'refused':
      return 'red';
    default: {
      const never: never = access;
      return never;
    }
  }
}
