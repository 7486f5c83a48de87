import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Grid, Layout, Space, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { operatorLogout, operatorMe } from '../api/operator-api';
import { AuditLogViewer } from '../components/audit-log-viewer';
import { ReviewQueue } from '../components/review-queue';
import { TrustAnchorsPanel } from '../components/trust-anchors-panel';
import { useOperatorFailure } from '../components/use-operator-failure';
import {
  clearOperatorSession,
  getOperatorName,
  getOperatorToken,
  MANAGE_LOGIN_PATH,
} from '../model/operator-session';

const TABS = ['realname', 'authority', 'sealApply', 'sealChange', 'trustAnchors', 'audit'] as const;
type TabKey = (typeof TABS)[number];

/** The operator console: its own header (operator, logout), the review queues (real name, authority, seal
 * applications, seal changes), the trust anchors and the audit log. */
export function ManageConsolePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const fail = useOperatorFailure();
  const [params, setParams] = useSearchParams();
  // A phone keeps the width for the content: narrower margins below the md breakpoint.
  const narrow = !Grid.useBreakpoint().md;
  const [hasToken] = useState(() => getOperatorToken() !== null);
  const tab: TabKey = TABS.find((k) => k === params.get('tab')) ?? 'realname';

  const me = useQuery({
    queryKey: ['manage', 'me'],
    queryFn: operatorMe,
    enabled: hasToken,
  });
  useEffect(() => {
    if (me.error) fail(me.error);
  }, [me.error, fail]);
  useEffect(() => {
    document.title = t('manage.title');
  }, [t]);

  if (!hasToken) return <Navigate to={MANAGE_LOGIN_PATH} replace />;

  const logout = async () => {
    try {
      await operatorLogout();
    } catch {
      // The session may already be gone; leaving is what matters.
    }
    clearOperatorSession();
    client.removeQueries({ queryKey: ['manage'] });
    void navigate(MANAGE_LOGIN_PATH, { replace: true });
  };

  const name = me.data?.name || me.data?.username || getOperatorName() || '';
  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="manage-console">
      <Layout.Header
        data-testid="manage-header"
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          background: '#1f2a3d',
          padding: narrow ? '0 12px' : '0 24px',
        }}
      >
        <Typography.Title level={4} style={{ color: '#fff', margin: 0 }}>
          {t('manage.title')}
        </Typography.Title>
        <Space>
          <span style={{ color: '#fff' }} data-testid="manage-operator-name">
            {name}
          </span>
          <Button data-testid="manage-logout" onClick={() => void logout()}>
            {t('manage.logout')}
          </Button>
        </Space>
      </Layout.Header>
      <Layout.Content style={{ padding: narrow ? 8 : 24 }}>
        <div
          style={{ background: '#fff', padding: narrow ? '4px 12px 12px' : '8px 24px 24px', borderRadius: 4 }}
        >
          <Tabs
            activeKey={tab}
            onChange={(k) => setParams({ tab: k }, { replace: true })}
            destroyOnHidden
            items={[
              {
                key: 'realname',
                label: <span data-testid="manage-tab-realname">{t('manage.tabRealname')}</span>,
                children: <ReviewQueue queue="realname" />,
              },
              {
                key: 'authority',
                label: <span data-testid="manage-tab-authority">{t('manage.tabAuthority')}</span>,
                children: <ReviewQueue queue="authority" />,
              },
              {
                key: 'sealApply',
                label: <span data-testid="manage-tab-sealApply">{t('manage.tabSealApply')}</span>,
                children: <ReviewQueue queue="sealApply" />,
              },
              {
                key: 'sealChange',
                label: <span data-testid="manage-tab-sealChange">{t('manage.tabSealChange')}</span>,
                children: <ReviewQueue queue="sealChange" />,
              },
              {
                key: 'trustAnchors',
                label: <span data-testid="manage-tab-trustAnchors">{t('trustAnchors.tab')}</span>,
                children: <TrustAnchorsPanel />,
              },
              {
                key: 'audit',
                label: <span data-testid="manage-tab-audit">{t('manage.tabAudit')}</span>,
                children: <AuditLogViewer />,
              },
            ]}
          />
        </div>
      </Layout.Content>
    </Layout>
  );
}
