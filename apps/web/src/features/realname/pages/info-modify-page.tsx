import { Alert, Button, Result, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import { PageLoading } from '../../../components/page-loading';
import { handleApiError } from '../../../lib/api-error-handler';
import { toastSuccess } from '../../../lib/feedback';
import { reloadTo } from '../../../lib/navigation';
import type { PageProps } from '../../../lib/page';
import { storeAccessToken } from '../../../lib/session';
import { confirmChangedItems, useChangedItems } from '../api/realname';
import { SandboxNotice } from '../components/sandbox-tag';

/**
 * /userCenter/infoModify: the registry holds other data than the platform (organisation name, legal
 * representative). The legal representative, a seal administrator or an administrator confirms them; the
 * confirmation answers a new token, stored before the app reloads (spec sections 4 and 6).
 */
export function InfoModifyPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const changes = useChangedItems();
  const [busy, setBusy] = useState(false);
  const title = t(route.titleKey, { ns: 'route' });

  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await confirmChangedItems();
      storeAccessToken(answer.changedBindAccessToken);
      toastSuccess(t('realNameFlow.changeConfirmed'));
      reloadTo('/userCenter/infoEnt');
    } catch (error) {
      handleApiError(error);
      setBusy(false);
    }
  };

  const body = () => {
    if (!changes.data)
      return changes.isError ? (
        <Result status="warning" title={t('realNameFlow.loadFailed')} />
      ) : (
        <PageLoading />
      );
    const { discoverChangedItems: items, legalChangedCurrentLoginUserHasChangePermission: mayConfirm } =
      changes.data;
    if (items.length === 0)
      return (
        <Result
          status="success"
          title={t('realNameFlow.noChanges')}
          extra={<Button onClick={() => void navigate('/userCenter/infoEnt')}>{t('common.back')}</Button>}
          data-testid="info-modify-none"
        />
      );
    return (
      <>
        <Alert type="warning" showIcon title={t('realNameFlow.changesFound')} style={{ marginBottom: 16 }} />
        <Table
          rowKey="field"
          pagination={false}
          dataSource={items}
          data-testid="info-modify-items"
          columns={[
            {
              title: t('realNameFlow.changeField'),
              dataIndex: 'field',
              render: (f: string) => t(`realNameFlow.field_${f}`),
            },
            { title: t('realNameFlow.changeCurrent'), dataIndex: 'current' },
            { title: t('realNameFlow.changeRegistry'), dataIndex: 'registry' },
          ]}
        />
        {mayConfirm ? null : (
          <Alert
            type="info"
            showIcon
            title={t('realNameFlow.changeNoPermission')}
            style={{ marginTop: 16 }}
          />
        )}
        <Space style={{ marginTop: 16 }}>
          <Button
            type="primary"
            disabled={!mayConfirm}
            loading={busy}
            onClick={() => void confirm()}
            data-testid="info-modify-confirm"
          >
            {t('realNameFlow.changeConfirm')}
          </Button>
          <Button onClick={() => void navigate('/userCenter/infoEnt')}>{t('common.cancel')}</Button>
        </Space>
      </>
    );
  };

  return (
    <div className="os-page" data-testid="info-modify-page">
      <BackHeader title={title} fallback="/userCenter/infoEnt" />
      <div className="os-card">
        <SandboxNotice sandbox={changes.data?.sandbox} />
        {body()}
      </div>
    </div>
  );
}
