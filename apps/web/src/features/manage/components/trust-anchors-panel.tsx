import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Grid,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState, type HTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addTrustAnchor,
  changeTrustAnchor,
  listTrustAnchors,
  type TrustAnchor,
  type TrustAnchorAction,
  type TrustAnchorList,
} from '../api/operator-api';
import { formatDate } from '../model/format';
import {
  certificateTextOf,
  formatFingerprint,
  MAX_CERTIFICATE_FILE_BYTES,
} from '../model/trust-anchor-input';
import { useOperatorFailure } from './use-operator-failure';

type BuiltIn = TrustAnchorList['builtIn'][number];

const DONE = {
  disable: 'trustAnchors.disabledOk',
  enable: 'trustAnchors.enabledOk',
  remove: 'trustAnchors.removedOk',
} as const satisfies Record<TrustAnchorAction, string>;

/**
 * The trust anchors page of the console: the anchors built in (the platform root, TRUST_LIST) and those
 * operators added (other platforms' roots, for mutual recognition), with add (file or pasted PEM), disable,
 * enable and remove, each behind a confirmation. A table on wide screens, cards on a phone.
 */
export function TrustAnchorsPanel() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const fail = useOperatorFailure();
  const client = useQueryClient();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;
  const [adding, setAdding] = useState(false);
  const lang = i18n.language;

  const anchors = useQuery({ queryKey: ['manage', 'trustAnchors'], queryFn: listTrustAnchors });
  useEffect(() => {
    if (anchors.error) fail(anchors.error);
  }, [anchors.error, fail]);

  const change = useMutation({
    mutationFn: (v: { id: string; action: TrustAnchorAction }) => changeTrustAnchor(v.id, v.action),
    onSuccess: (_, v) => {
      void message.success(t(DONE[v.action]));
      void client.invalidateQueries({ queryKey: ['manage'] });
    },
    onError: fail,
  });

  const validity = (a: { notBefore: string; notAfter: string }, validNow = true) => (
    <span>
      {formatDate(a.notBefore, lang)} – {formatDate(a.notAfter, lang)}
      {validNow ? null : (
        <Tag color="error" style={{ marginInlineStart: 8 }}>
          {t('trustAnchors.notValidNow')}
        </Tag>
      )}
    </span>
  );
  const fingerprint = (hex: string) => (
    <Typography.Text
      code
      copyable={{ text: hex, tooltips: [t('trustAnchors.copy')] }}
      style={{ wordBreak: 'break-all', fontSize: 12 }}
      data-testid="trust-anchor-fingerprint"
    >
      {formatFingerprint(hex)}
    </Typography.Text>
  );
  const statusTag = (a: TrustAnchor) => (
    <Tag color={a.status === 'enabled' ? 'success' : 'default'} data-testid="trust-anchor-status">
      {t(`trustAnchors.status_${a.status}`)}
    </Tag>
  );
  const actions = (a: TrustAnchor) => {
    const confirm = (action: TrustAnchorAction, danger: boolean, label: string): ReactNode => (
      <Popconfirm
        key={action}
        title={t(`trustAnchors.${action}Confirm`)}
        okText={t('trustAnchors.confirm')}
        cancelText={t('trustAnchors.cancel')}
        okButtonProps={{ danger, 'data-testid': 'trust-anchor-confirm' }}
        onConfirm={() => change.mutate({ id: a.anchorId, action })}
        styles={{ root: { maxWidth: 320 } }}
      >
        <Button size="small" danger={danger} data-testid={`trust-anchor-${action}`} data-id={a.anchorId}>
          {label}
        </Button>
      </Popconfirm>
    );
    return (
      <Space wrap>
        {a.status === 'enabled'
          ? confirm('disable', false, t('trustAnchors.disable'))
          : confirm('enable', false, t('trustAnchors.enable'))}
        {confirm('remove', true, t('trustAnchors.remove'))}
      </Space>
    );
  };
  const rowAttributes = (a: TrustAnchor) =>
    ({
      'data-testid': 'trust-anchor-row',
      'data-id': a.anchorId,
      'data-status': a.status,
      'data-fingerprint': a.fingerprintSha256,
    }) as HTMLAttributes<HTMLElement>;

  const columns: ColumnsType<TrustAnchor> = [
    {
      title: t('trustAnchors.label'),
      key: 'label',
      width: 200,
      render: (_, a) => (
        <>
          <div>
            <strong>{a.label}</strong>
          </div>
          {a.note ? <Typography.Text type="secondary">{a.note}</Typography.Text> : null}
        </>
      ),
    },
    {
      title: t('trustAnchors.certificate'),
      key: 'certificate',
      render: (_, a) => (
        <div style={{ maxWidth: 520 }}>
          <div>{a.subject}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('trustAnchors.issuer')}: {a.issuer}
          </Typography.Text>
          <div>{fingerprint(a.fingerprintSha256)}</div>
        </div>
      ),
    },
    {
      title: t('trustAnchors.validity'),
      key: 'validity',
      render: (_, a) => (
        <>
          <div>{validity(a, a.validNow)}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {a.keyAlgorithm}
          </Typography.Text>
        </>
      ),
    },
    { title: t('trustAnchors.status'), key: 'status', render: (_, a) => statusTag(a) },
    { title: t('trustAnchors.actions'), key: 'actions', render: (_, a) => actions(a) },
  ];

  const list = anchors.data?.list ?? [];
  return (
    <div data-testid="trust-anchors-panel">
      <Typography.Paragraph type="secondary">{t('trustAnchors.intro')}</Typography.Paragraph>

      <Typography.Title level={5}>{t('trustAnchors.builtIn')}</Typography.Title>
      <Space orientation="vertical" style={{ width: '100%', marginBottom: 24 }}>
        {(anchors.data?.builtIn ?? []).map((b) => (
          <BuiltInCard key={b.fingerprintSha256} anchor={b} validity={validity} fingerprint={fingerprint} />
        ))}
      </Space>

      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('trustAnchors.added')}
        </Typography.Title>
        <Button type="primary" data-testid="trust-anchor-add" onClick={() => setAdding(true)}>
          {t('trustAnchors.add')}
        </Button>
      </Space>

      {narrow ? (
        list.length === 0 ? (
          <Empty description={t('trustAnchors.empty')} />
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }} data-testid="trust-anchor-cards">
            {list.map((a) => (
              <Card key={a.anchorId} size="small" title={a.label} extra={statusTag(a)} {...rowAttributes(a)}>
                <Descriptions
                  column={1}
                  size="small"
                  items={[
                    { key: 's', label: t('trustAnchors.subject'), children: a.subject },
                    {
                      key: 'f',
                      label: t('trustAnchors.fingerprint'),
                      children: fingerprint(a.fingerprintSha256),
                    },
                    { key: 'v', label: t('trustAnchors.validity'), children: validity(a, a.validNow) },
                    { key: 'k', label: t('trustAnchors.keyAlgorithm'), children: a.keyAlgorithm },
                    ...(a.note ? [{ key: 'n', label: t('trustAnchors.note'), children: a.note }] : []),
                  ]}
                />
                <div style={{ marginTop: 8 }}>{actions(a)}</div>
              </Card>
            ))}
          </Space>
        )
      ) : (
        <Table<TrustAnchor>
          data-testid="trust-anchor-table"
          rowKey="anchorId"
          columns={columns}
          dataSource={list}
          loading={anchors.isPending || change.isPending}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('trustAnchors.empty')} /> }}
          onRow={rowAttributes}
        />
      )}

      <AddAnchorModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          void message.success(t('trustAnchors.addedOk'));
          void client.invalidateQueries({ queryKey: ['manage'] });
        }}
      />
    </div>
  );
}

function BuiltInCard({
  anchor,
  validity,
  fingerprint,
}: {
  anchor: BuiltIn;
  validity: (a: { notBefore: string; notAfter: string }) => ReactNode;
  fingerprint: (hex: string) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" data-testid="trust-anchor-builtin" data-source={anchor.source}>
      <Descriptions
        column={1}
        size="small"
        title={<Tag color="blue">{t(`trustAnchors.source_${anchor.source}`)}</Tag>}
        items={[
          { key: 's', label: t('trustAnchors.subject'), children: anchor.subject },
          { key: 'f', label: t('trustAnchors.fingerprint'), children: fingerprint(anchor.fingerprintSha256) },
          { key: 'v', label: t('trustAnchors.validity'), children: validity(anchor) },
          { key: 'k', label: t('trustAnchors.keyAlgorithm'), children: anchor.keyAlgorithm },
        ]}
      />
    </Card>
  );
}

/** Add one anchor: a name, a note, the certificate as a file or pasted PEM, and the explicit acceptance. */
function AddAnchorModal({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'file' | 'pem'>('file');
  const [label, setLabel] = useState('');
  const [note, setNote] = useState('');
  const [pem, setPem] = useState('');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [accept, setAccept] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setMode('file');
    setLabel('');
    setNote('');
    setPem('');
    setFile(null);
    setAccept(false);
    setError(null);
  }, [open]);

  const certificate = mode === 'file' ? (file?.text ?? '') : pem.trim();
  const add = useMutation({
    mutationFn: () =>
      addTrustAnchor({
        certificate,
        label: label.trim(),
        ...(note.trim() ? { note: note.trim() } : {}),
        acceptNotValidNow: accept,
      }),
    onSuccess: onAdded,
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });

  return (
    <Modal
      open={open}
      title={t('trustAnchors.addTitle')}
      okText={t('trustAnchors.submit')}
      cancelText={t('trustAnchors.cancel')}
      okButtonProps={{
        disabled: !label.trim() || !certificate,
        'data-testid': 'trust-anchor-add-submit',
      }}
      confirmLoading={add.isPending}
      onCancel={onClose}
      onOk={() => {
        setError(null);
        add.mutate();
      }}
      destroyOnHidden
      width={560}
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <div>
          <div>{t('trustAnchors.label')}</div>
          <Input
            data-testid="trust-anchor-add-label"
            value={label}
            maxLength={64}
            placeholder={t('trustAnchors.labelPlaceholder')}
            onChange={(e) => setLabel(e.target.value)}
          />
        </div>
        <div>
          <div>{t('trustAnchors.note')}</div>
          <Input.TextArea
            data-testid="trust-anchor-add-note"
            value={note}
            maxLength={500}
            autoSize={{ minRows: 1, maxRows: 3 }}
            placeholder={t('trustAnchors.notePlaceholder')}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        <div>
          <div style={{ marginBottom: 4 }}>{t('trustAnchors.certificate')}</div>
          <Segmented
            data-testid="trust-anchor-add-mode"
            value={mode}
            onChange={(v) => setMode(v as 'file' | 'pem')}
            options={[
              {
                value: 'file',
                label: <span data-testid="trust-anchor-mode-file">{t('trustAnchors.modeFile')}</span>,
              },
              {
                value: 'pem',
                label: <span data-testid="trust-anchor-mode-pem">{t('trustAnchors.modePem')}</span>,
              },
            ]}
          />
          <div style={{ marginTop: 8 }}>
            {mode === 'file' ? (
              <>
                <Upload
                  accept=".cer,.crt,.pem,.der"
                  maxCount={1}
                  showUploadList={false}
                  beforeUpload={(f) => {
                    if (f.size > MAX_CERTIFICATE_FILE_BYTES) {
                      setError(t('trustAnchors.fileTooLarge'));
                      return Upload.LIST_IGNORE;
                    }
                    void f.arrayBuffer().then((buf) => {
                      setError(null);
                      setFile({ name: f.name, text: certificateTextOf(new Uint8Array(buf)) });
                    });
                    return false;
                  }}
                >
                  <Button data-testid="trust-anchor-add-file">{t('trustAnchors.chooseFile')}</Button>
                </Upload>
                <div>
                  <Typography.Text type="secondary" data-testid="trust-anchor-file-name">
                    {file ? file.name : t('trustAnchors.fileHint')}
                  </Typography.Text>
                </div>
              </>
            ) : (
              <Input.TextArea
                data-testid="trust-anchor-add-pem"
                value={pem}
                autoSize={{ minRows: 6, maxRows: 12 }}
                placeholder={t('trustAnchors.pemPlaceholder')}
                style={{ fontFamily: 'monospace', fontSize: 12 }}
                onChange={(e) => setPem(e.target.value)}
              />
            )}
          </div>
        </div>
        <Checkbox
          data-testid="trust-anchor-add-accept"
          checked={accept}
          onChange={(e) => setAccept(e.target.checked)}
        >
          {t('trustAnchors.acceptNotValidNow')}
        </Checkbox>
        {error ? <Alert type="error" showIcon title={error} data-testid="trust-anchor-add-error" /> : null}
      </Space>
    </Modal>
  );
}
