import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Space, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { operatorLogout, operatorMe } from '../api/operator-api';
import { AuditLogViewer } from '../components/audit-log-viewer';
import { ReviewQueue } from '../components/review-queue';
import { useOperatorFailure } from '../components/use-operator-failure';
import {
  clearOperatorSession,
  getOperatorName,
  getOperatorToken,
  MANAGE_LOGIN_PATH,
} from '../model/operator-session';

const TABS = ['realname', 'authority', 'sealApply', 'sealChange', 'audit'] as const;
type TabKey = (typeof TABS)[number];

/** The operator console: its own header (operator, logout), the review queues (real name, authority, seal
 * applications, seal changes) and the audit log. */
export function ManageConsolePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const fail = useOperatorFailure();
  const [params, setParams] = useSearchParams();
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
          padding: '0 24px',
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
      <Layout.Content style={{ padding: 24 }}>
        <div style={{ background: '#fff', padding: '8px 24px 24px', borderRadius: 4 }}>
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
