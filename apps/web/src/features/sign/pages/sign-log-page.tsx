import { contracts } from '@openseal/core';
import { Empty, Select, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../components/back-header';
import type { PageProps } from '../../../lib/page';
import { useSignLogs } from '../api/flows';
import type { SignLogEntry } from '../api/types';
import { detailPath, formatTime } from '../model/format';
import { ResponsiveTable } from '../../../components/responsive-table';

const PAGE_SIZE = 20;
type LogAction = contracts.SignLogAction;

/** /signService/signLog: every act in the caller's flows, newest first, each with its evidence index. */
export function SignLogPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [action, setAction] = useState<LogAction | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const logs = useSignLogs({ action, pageNum, pageSize: PAGE_SIZE });
  const columns: ColumnsType<SignLogEntry> = [
    { title: t('signLog.time'), key: 'at', width: 140, render: (_, e) => formatTime(e.at) },
    {
      title: t('signLog.flow'),
      key: 'flow',
      render: (_, e) => (
        <Typography.Link onClick={() => void navigate(detailPath(e.flowId))}>{e.flowName}</Typography.Link>
      ),
    },
    {
      title: t('signLog.action'),
      key: 'action',
      width: 120,
      render: (_, e) => t(`signCommon.logAction.${e.action}`),
    },
    { title: t('signLog.actor'), key: 'actor', width: 110, render: (_, e) => e.actorName },
    { title: t('signLog.organisation'), key: 'org', width: 180, render: (_, e) => e.organizeName ?? '' },
    { title: t('signLog.seal'), key: 'seal', width: 130, render: (_, e) => e.sealName ?? '' },
    { title: t('signLog.file'), key: 'file', width: 150, render: (_, e) => e.fileName ?? '' },
    { title: t('signLog.evidence'), key: 'evidence', width: 90, render: (_, e) => e.evidenceIndex ?? '' },
  ];
  return (
    <div className="os-page" data-testid="sign-log-page">
      <BackHeader title={t(route.titleKey, { ns: 'route' })} fallback="/signService/signByMe" />
      <div className="os-card">
        <Select<LogAction>
          allowClear
          style={{ width: 180, marginBottom: 16 }}
          placeholder={t('signLog.allActions')}
          value={action}
          onChange={(v) => {
            setAction(v);
            setPageNum(1);
          }}
          options={contracts.SIGN_LOG_ACTIONS.map((a) => ({
            value: a,
            label: t(`signCommon.logAction.${a}`),
          }))}
        />
        <ResponsiveTable<SignLogEntry>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={logs.data?.list ?? []}
          loading={logs.isFetching && !logs.data}
          onRow={(e) =>
            ({ 'data-testid': 'log-row', 'data-action': e.action }) as HTMLAttributes<HTMLTableRowElement>
          }
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('signCommon.empty')} />,
          }}
          pagination={{
            current: pageNum,
            pageSize: PAGE_SIZE,
            total: logs.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('signCommon.total', { total }),
            onChange: setPageNum,
          }}
        />
      </div>
    </div>
  );
}
