import { checkMobile } from '@openseal/core';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Space, Table, Tabs, Tag, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { AppDialog } from '../../../components/app-dialog';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { RealNameTag } from '../../../components/real-name-tag';
import { WarningDialog } from '../../../components/warning-dialog';
import { useAccountInfo } from '../../../hooks/use-session';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';
import type { PageProps } from '../../../lib/page';
import {
  addMember,
  deleteMember,
  MEMBERS_KEY,
  modifyMember,
  pauseMember,
  useMembers,
  usePermissions,
  useRoles,
  type Member,
  type MemberStatus,
} from '../api/members';
import { NoPermissionNotice, OrgOnlyNotice } from '../components/org-only';
import { RoleChecks } from '../components/role-checks';
import { RolesPanel } from '../components/roles-panel';
import {
  editableRoleCodes,
  grantableRoles,
  isHolderRole,
  keptRoleCodes,
  STATUS_COLOUR,
} from '../model/roles';

type TabKey = 'members' | 'invited';
/** The page's two sections; `?section=roles` opens the roles. */
type Section = 'members' | 'roles';
type Confirm = { kind: 'pause' | 'resume' | 'delete'; member: Member } | null;

const PAGE_SIZE = 10;

/** Key of a row: a member's id, or an invitation's. */
const rowId = (m: Member) => m.memberId ?? m.inviteId ?? '';

/** /userCenter/infoMemberList: the organisation's members and invitations, managed by administrators. */
export function MemberListPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const language = normaliseLanguage(i18n.language);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const account = useAccountInfo();
  const inOrg = Boolean(account.data?.userInfoOrg);
  const permissions = usePermissions();
  const points = permissions.data?.points ?? [];
  const canView = points.includes('member.view');
  const canManage = points.includes('member.manage');
  const canManageRoles = points.includes('role.manage');
  const isHolder = (permissions.data?.roles ?? []).some((r) => isHolderRole(r.code));
  // One query serves the member dialogs (custom roles included) and the roles section.
  const roles = useRoles(inOrg && (canManage || canManageRoles));
  const [params, setParams] = useSearchParams();
  // Someone who manages roles without seeing members starts where they can act.
  const section: Section =
    canManageRoles && (params.get('section') === 'roles' || !canView) ? 'roles' : 'members';
  const changeSection = (next: Section) =>
    setParams(
      (p) => {
        const copy = new URLSearchParams(p);
        if (next === 'roles') copy.set('section', 'roles');
        else copy.delete('section');
        return copy;
      },
      { replace: true },
    );
  // The server says which points the caller may grant (their own, never seal claiming).
  const grantablePoints = permissions.data?.grantable;
  const grantable = useMemo(
    () => grantableRoles(roles.data?.roles ?? [], grantablePoints ?? []),
    [roles.data, grantablePoints],
  );

  const [tab, setTab] = useState<TabKey>('members');
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<Exclude<MemberStatus, 'invited'> | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const filter =
    tab === 'invited'
      ? { status: 'invited' as const, pageNum, pageSize: PAGE_SIZE }
      : { keyword: keyword.trim() || undefined, status, pageNum, pageSize: PAGE_SIZE };
  const list = useMembers(filter, inOrg && canView && section === 'members');

  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Member | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const [addForm] = Form.useForm<{ mobile: string; nickname?: string; roles: string[] }>();
  const [editForm] = Form.useForm<{ nickname?: string; roles: string[] }>();

  const refresh = () => queryClient.invalidateQueries({ queryKey: MEMBERS_KEY });

  if (!account.data || (inOrg && permissions.isPending)) return <PageLoading />;
  const title = t(route.titleKey, { ns: 'route' });
  const ownMemberId = account.data.memberId;

  const run = async (action: () => Promise<unknown>, success: string, after?: () => void) => {
    setBusy(true);
    try {
      await action();
      toastSuccess(success);
      after?.();
      await refresh();
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const submitAdd = (values: { mobile: string; nickname?: string; roles: string[] }) =>
    run(
      async () => {
        const result = await addMember({
          mobile: values.mobile.trim(),
          nickname: values.nickname?.trim() || undefined,
          roles: values.roles,
        });
        if (result.status === 'invited') setTab('invited');
      },
      t('members.addSuccess'),
      () => {
        setAdding(false);
        addForm.resetFields();
      },
    );

  const submitEdit = (values: { nickname?: string; roles: string[] }) =>
    editing
      ? run(
          () =>
            modifyMember(rowId(editing), {
              nickname: values.nickname?.trim() ?? '',
              roles: [
                ...values.roles,
                ...keptRoleCodes(
                  editing.roles.map((r) => r.code),
                  grantable,
                ),
              ],
            }),
          t('members.editSuccess'),
          () => setEditing(null),
        )
      : undefined;

  const confirmAction = () => {
    if (!confirm) return;
    const id = rowId(confirm.member);
    const done = () => setConfirm(null);
    if (confirm.kind === 'delete') void run(() => deleteMember(id), t('members.deleteSuccess'), done);
    else
      void run(
        () => pauseMember(id, confirm.kind === 'pause'),
        confirm.kind === 'pause' ? t('members.pauseSuccess') : t('members.resumeSuccess'),
        done,
      );
  };

  const statusText = (s: MemberStatus) => t(`members.status.${s}`);
  const columns: ColumnsType<Member> = [
    {
      title: t('members.name'),
      key: 'name',
      render: (_, m) => (
        <Space size={6} data-testid="member-name">
          <span>{m.nickname || m.name || '—'}</span>
          {m.nickname && m.name && m.nickname !== m.name ? (
            <span style={{ color: 'var(--os-text-2)' }}>({m.name})</span>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('members.mobile'),
      dataIndex: 'mobile',
      key: 'mobile',
      render: (v: string) => <span data-testid="member-mobile">{v}</span>,
    },
    {
      title: t('members.roles'),
      key: 'roles',
      render: (_, m) => (
        <Space size={4} wrap data-testid="member-roles">
          {m.roles.map((r) => (
            <Tag key={r.code} color={isHolderRole(r.code) ? 'gold' : 'blue'} variant="filled">
              {r.name}
            </Tag>
          ))}
        </Space>
      ),
    },
    ...(tab === 'members'
      ? [
          {
            title: t('members.realName'),
            key: 'realName',
            render: (_: unknown, m: Member) => <RealNameTag status={m.realNameStatus} />,
          },
        ]
      : []),
    {
      title: t('members.statusTitle'),
      key: 'status',
      render: (_, m) => (
        <Tag color={STATUS_COLOUR[m.status]} data-testid="member-status" data-status={m.status}>
          {statusText(m.status)}
        </Tag>
      ),
    },
    {
      title: tab === 'invited' ? t('members.invitedAt') : t('members.joinedAt'),
      dataIndex: 'createTime',
      key: 'createTime',
      render: (v: string) => new Date(v).toLocaleString(i18n.language),
    },
    ...(canManage
      ? [
          {
            title: t('members.actions'),
            key: 'actions',
            render: (_: unknown, m: Member) => {
              const protectedRow = m.roles.some((r) => isHolderRole(r.code)) || m.memberId === ownMemberId;
              return (
                <Space size={0} wrap>
                  <Button
                    type="link"
                    size="small"
                    data-testid="member-edit"
                    onClick={() => {
                      setEditing(m);
                      editForm.setFieldsValue({
                        nickname: m.nickname,
                        roles: editableRoleCodes(m.roles.map((r) => r.code)).filter((c) =>
                          grantable.some((r) => r.code === c),
                        ),
                      });
                    }}
                  >
                    {t('members.edit')}
                  </Button>
                  {m.status !== 'invited' && !protectedRow ? (
                    <Button
                      type="link"
                      size="small"
                      data-testid={m.status === 'paused' ? 'member-resume' : 'member-pause'}
                      onClick={() =>
                        setConfirm({ kind: m.status === 'paused' ? 'resume' : 'pause', member: m })
                      }
                    >
                      {m.status === 'paused' ? t('members.resume') : t('members.pause')}
                    </Button>
                  ) : null}
                  {!protectedRow ? (
                    <Button
                      type="link"
                      size="small"
                      danger
                      data-testid="member-delete"
                      onClick={() => setConfirm({ kind: 'delete', member: m })}
                    >
                      {m.status === 'invited' ? t('members.cancelInvite') : t('members.delete')}
                    </Button>
                  ) : null}
                </Space>
              );
            },
          },
        ]
      : []),
  ];

  const confirmTitle = confirm ? t(`members.confirm.${confirm.kind}Title`) : '';
  const confirmText = confirm
    ? t(`members.confirm.${confirm.member.status === 'invited' ? 'cancelInvite' : confirm.kind}Text`, {
        name: confirm.member.nickname || confirm.member.name || confirm.member.mobile,
      })
    : '';

  const membersSection = (
    <>
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          gap: 12,
          flexWrap: 'wrap',
          marginBottom: 12,
        }}
      >
        <Space wrap>
          {canManage ? (
            <Button
              type="primary"
              data-testid="member-add-open"
              onClick={() => {
                addForm.setFieldsValue({ mobile: '', nickname: '', roles: ['staff'] });
                setAdding(true);
              }}
            >
              {t('members.add')}
            </Button>
          ) : null}
          {isHolder ? (
            <Button
              data-testid="member-holder-change"
              onClick={() => void navigate('/userCenter/infoModifyLegal')}
            >
              {t('members.holderChange')}
            </Button>
          ) : null}
          <Button
            data-testid="member-authority-records"
            onClick={() => void navigate('/userCenter/applyAuthorityRecord')}
          >
            {t('members.authorityRecords')}
          </Button>
        </Space>
        {tab === 'members' ? (
          <Space wrap>
            <Select<Exclude<MemberStatus, 'invited'> | 'all'>
              style={{ width: 140 }}
              value={status ?? 'all'}
              data-testid="member-status-filter"
              onChange={(v) => {
                setStatus(v === 'all' ? undefined : v);
                setPageNum(1);
              }}
              options={[
                { value: 'all', label: t('members.status.all') },
                { value: 'active', label: t('members.status.active') },
                { value: 'paused', label: t('members.status.paused') },
              ]}
            />
            <Input.Search
              allowClear
              style={{ width: 240 }}
              placeholder={t('members.searchPlaceholder')}
              data-testid="member-search"
              onSearch={(v) => {
                setKeyword(v);
                setPageNum(1);
              }}
            />
          </Space>
        ) : null}
      </div>
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k as TabKey);
          setPageNum(1);
        }}
        items={[
          {
            key: 'members',
            label: <span data-testid="member-tab-members">{t('members.tabMembers')}</span>,
          },
          {
            key: 'invited',
            label: <span data-testid="member-tab-invited">{t('members.tabInvited')}</span>,
          },
        ]}
      />
      <Table<Member>
        rowKey={rowId}
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        data-testid={tab === 'invited' ? 'invite-table' : 'member-table'}
        onRow={(m) =>
          ({
            'data-testid': m.status === 'invited' ? 'invite-row' : 'member-row',
            'data-member-id': rowId(m),
            'data-status': m.status,
          }) as HTMLAttributes<HTMLElement>
        }
        locale={{ emptyText: tab === 'invited' ? t('members.emptyInvited') : t('members.empty') }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNum,
        }}
      />
    </>
  );

  return (
    <div className="os-page" data-testid="member-list-page">
      <BackHeader title={title} fallback="/userCenter/infoEnt" />
      <div className="os-card">
        {!inOrg ? (
          <OrgOnlyNotice />
        ) : !canView && !canManageRoles ? (
          <NoPermissionNotice />
        ) : canManageRoles ? (
          <Tabs
            type="card"
            activeKey={section}
            onChange={(k) => changeSection(k as Section)}
            items={[
              ...(canView
                ? [
                    {
                      key: 'members',
                      label: (
                        <span data-testid="member-section-members">{t('roleEditor.sectionMembers')}</span>
                      ),
                      children: membersSection,
                    },
                  ]
                : []),
              {
                key: 'roles',
                label: <span data-testid="member-section-roles">{t('roleEditor.sectionRoles')}</span>,
                children: (
                  <RolesPanel
                    roles={roles.data}
                    loading={roles.isFetching}
                    grantable={grantablePoints ?? []}
                  />
                ),
              },
            ]}
          />
        ) : (
          membersSection
        )}
      </div>

      <AppDialog
        open={adding}
        title={t('members.addTitle')}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'member-add-confirm' }}
        cancelButtonProps={{ 'data-testid': 'member-add-cancel' }}
        onOk={() => addForm.submit()}
        onCancel={() => setAdding(false)}
      >
        <Form
          form={addForm}
          layout="vertical"
          onFinish={(v) => void submitAdd(v)}
          data-testid="member-add-form"
        >
          <Form.Item
            name="mobile"
            label={t('members.mobile')}
            required
            rules={[checkRule(checkMobile, language)]}
          >
            <Input
              maxLength={11}
              inputMode="numeric"
              placeholder={t('members.mobilePlaceholder')}
              data-testid="member-add-mobile"
            />
          </Form.Item>
          <Form.Item name="nickname" label={t('members.nickname')} rules={[{ max: 50 }]}>
            <Input
              maxLength={50}
              placeholder={t('members.nicknamePlaceholder')}
              data-testid="member-add-nickname"
            />
          </Form.Item>
          <Form.Item
            name="roles"
            label={t('members.roles')}
            extra={t('members.rolesHint')}
            rules={[{ required: true, type: 'array', min: 1, message: t('members.rolesRequired') }]}
          >
            <RoleChecks roles={grantable} />
          </Form.Item>
        </Form>
        <div style={{ color: 'var(--os-text-2)' }}>{t('members.inviteHint')}</div>
      </AppDialog>

      <AppDialog
        open={editing !== null}
        title={t('members.editTitle')}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'member-edit-confirm' }}
        onOk={() => editForm.submit()}
        onCancel={() => setEditing(null)}
      >
        <Form form={editForm} layout="vertical" onFinish={(v) => void submitEdit(v)}>
          <Form.Item label={t('members.mobile')}>
            <span>{editing?.mobile}</span>
          </Form.Item>
          <Form.Item name="nickname" label={t('members.nickname')} rules={[{ max: 50 }]}>
            <Input maxLength={50} data-testid="member-edit-nickname" />
          </Form.Item>
          <Form.Item
            name="roles"
            label={t('members.roles')}
            extra={
              editing?.roles.some((r) => isHolderRole(r.code))
                ? t('members.holderKept')
                : t('members.rolesHint')
            }
            rules={[{ required: true, type: 'array', min: 1, message: t('members.rolesRequired') }]}
          >
            <RoleChecks roles={grantable} testIdPrefix="member-edit-role" />
          </Form.Item>
        </Form>
      </AppDialog>

      <WarningDialog
        open={confirm !== null}
        title={confirmTitle}
        content={confirmText}
        danger={confirm?.kind !== 'resume'}
        confirmLoading={busy}
        onConfirm={confirmAction}
        onCancel={() => setConfirm(null)}
        testId="member-confirm"
      />
    </div>
  );
}
