import { entryForCode } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes, Key } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/app-dialog';
import { WarningDialog } from '../../../components/warning-dialog';
import { isApiError } from '../../../lib/api-client';
import { handleApiError } from '../../../lib/api-error-handler';
import { messageOf } from '../../../lib/api-error-reaction';
import { toastSuccess } from '../../../lib/feedback';
import { normaliseLanguage } from '../../../lib/language';
import { createRole, deleteRole, MEMBERS_KEY, modifyRole, type Role, type RoleList } from '../api/members';
import { grantableTree, isWithin, pointNames } from '../model/permission-tree';
import { PermissionTree } from './permission-tree';

interface Values {
  name: string;
  description?: string;
  points: string[];
}

/** The editor is open for a new role (`null` role) or for one custom role. */
type Editing = { role: Role | null } | null;

/**
 * The organisation's roles (spec 6): built-in roles read-only with their points as the checked tree, custom
 * roles created, changed and deleted over the tree the server answers. Shown to holders of `role.manage`;
 * the editor offers only the points the caller may grant, and a role carrying any other point is not
 * theirs to edit or delete. The server checks all of it on every change anyway.
 */
export function RolesPanel(props: {
  roles: RoleList | undefined;
  loading: boolean;
  /** The caller's grantable points (GET /v1/permissions). */
  grantable: readonly string[];
}) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const [busy, setBusy] = useState(false);
  const selected = Form.useWatch('points', form) ?? [];

  const tree = props.roles?.tree ?? [];
  const offered = grantableTree(tree, props.grantable);
  const roles = props.roles?.roles ?? [];
  const staff = roles.find((r) => r.code === 'staff');

  // Role names show on members, applications and the caller's own permissions: refresh all of them.
  const refresh = () => queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });

  const openEditor = (role: Role | null) => {
    form.setFieldsValue({
      name: role?.name ?? '',
      description: role?.description ?? '',
      points: role ? [...role.points] : [],
    });
    setEditing({ role });
  };

  const save = async (values: Values) => {
    if (!editing) return;
    const request = {
      name: values.name.trim(),
      description: values.description?.trim() ?? '',
      points: values.points,
    };
    setBusy(true);
    try {
      if (editing.role) await modifyRole(editing.role.code, request);
      else await createRole(request);
      toastSuccess(editing.role ? t('roleEditor.editSuccess') : t('roleEditor.createSuccess'));
      setEditing(null);
      await refresh();
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteRole(deleting.code);
      toastSuccess(t('roleEditor.deleteSuccess'));
      setDeleting(null);
      await refresh();
    } catch (error) {
      // A catalogued refusal (a role still held, a built-in role) belongs in the dialog that asked for the
      // deletion; session and transport failures keep their usual handling.
      const entry = isApiError(error) && error.code !== null ? entryForCode(error.code) : undefined;
      if (isApiError(error) && error.kind === 'api' && entry?.handling === 'toastFail')
        setRefusal(messageOf(error, language));
      else handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const columns: ColumnsType<Role> = [
    {
      title: t('roleEditor.name'),
      key: 'name',
      render: (_, r) => (
        <Space size={6}>
          <span data-testid="role-name">{r.name}</span>
          <Tag color={r.builtIn ? 'default' : 'blue'} data-testid="role-kind">
            {r.builtIn ? t('roleEditor.builtIn') : t('roleEditor.custom')}
          </Tag>
        </Space>
      ),
    },
    {
      title: t('roleEditor.description'),
      key: 'description',
      render: (_, r) => r.description || '—',
    },
    {
      title: t('roleEditor.points'),
      key: 'points',
      render: (_, r) => {
        const names = pointNames(tree, r.points);
        return (
          <span data-testid="role-points" data-count={r.points.length} title={names.join('、')}>
            {t('roleEditor.pointsCount', { count: r.points.length })}
          </span>
        );
      },
    },
    {
      title: t('roleEditor.actions'),
      key: 'actions',
      render: (_, r) =>
        r.builtIn ? (
          <span style={{ color: 'var(--os-text-2)' }}>{t('roleEditor.builtInLocked')}</span>
        ) : !isWithin(r.points, props.grantable) ? (
          <span style={{ color: 'var(--os-text-2)' }} data-testid="role-above">
            {t('roleEditor.aboveCaller')}
          </span>
        ) : (
          <Space size={0}>
            <Button type="link" size="small" data-testid="role-edit" onClick={() => openEditor(r)}>
              {t('roleEditor.edit')}
            </Button>
            <Button
              type="link"
              size="small"
              danger
              data-testid="role-delete"
              onClick={() => {
                setRefusal(null);
                setDeleting(r);
              }}
            >
              {t('roleEditor.delete')}
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <div data-testid="roles-panel">
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 12,
          flexWrap: 'wrap',
          marginBottom: 12,
        }}
      >
        <span style={{ color: 'var(--os-text-2)' }}>{t('roleEditor.hint')}</span>
        <Button
          type="primary"
          data-testid="role-create-open"
          disabled={offered.length === 0}
          onClick={() => openEditor(null)}
        >
          {t('roleEditor.create')}
        </Button>
      </div>
      <Table<Role>
        rowKey="code"
        columns={columns}
        dataSource={roles}
        loading={props.loading}
        pagination={false}
        data-testid="role-table"
        locale={{ emptyText: t('roleEditor.empty') }}
        onRow={(r) =>
          ({
            'data-testid': 'role-row',
            'data-role-code': r.code,
            'data-built-in': r.builtIn,
          }) as HTMLAttributes<HTMLElement>
        }
        expandable={{
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys) => setExpanded(keys),
          expandedRowRender: (r) => (
            <PermissionTree tree={tree} value={r.points} readOnly testId={`role-tree-${r.code}`} />
          ),
        }}
      />

      <AppDialog
        open={editing !== null}
        title={editing?.role ? t('roleEditor.editTitle') : t('roleEditor.createTitle')}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'role-save' }}
        cancelButtonProps={{ 'data-testid': 'role-cancel' }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
      >
        <Form<Values> form={form} layout="vertical" onFinish={(v) => void save(v)} data-testid="role-form">
          <Form.Item
            name="name"
            label={t('roleEditor.name')}
            rules={[{ required: true, whitespace: true, message: t('roleEditor.nameRequired') }, { max: 30 }]}
          >
            <Input
              maxLength={30}
              placeholder={t('roleEditor.namePlaceholder')}
              data-testid="role-name-input"
            />
          </Form.Item>
          <Form.Item name="description" label={t('roleEditor.description')} rules={[{ max: 200 }]}>
            <Input.TextArea
              rows={2}
              maxLength={200}
              placeholder={t('roleEditor.descriptionPlaceholder')}
              data-testid="role-description-input"
            />
          </Form.Item>
          <Form.Item
            name="points"
            label={t('roleEditor.pointsLabel', { count: selected.length })}
            extra={
              staff
                ? t('roleEditor.staffBase', { points: pointNames(tree, staff.points).join('、') })
                : undefined
            }
            rules={[{ required: true, type: 'array', min: 1, message: t('roleEditor.pointsRequired') }]}
          >
            <PermissionTree tree={offered} testId="role-tree-editor" />
          </Form.Item>
        </Form>
      </AppDialog>

      <WarningDialog
        open={deleting !== null}
        title={t('roleEditor.deleteTitle')}
        content={
          <>
            <div>{t('roleEditor.deleteText', { name: deleting?.name ?? '' })}</div>
            {refusal ? (
              <Alert
                type="error"
                showIcon
                style={{ marginTop: 12 }}
                title={refusal}
                data-testid="role-delete-refusal"
              />
            ) : null}
          </>
        }
        danger
        confirmLoading={busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
        testId="role-confirm"
      />
    </div>
  );
}
