import { Button, Descriptions, Input, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastSuccess, toastWarning } from '../../../lib/feedback';
import { agentUrl, DEFAULT_AGENT_URL, setAgentUrl } from '../api/ukey-agent';
import { useAgentDownload } from '../api/ukeys';
import { normaliseAgentUrl } from '../model/ukey-problems';

/**
 * How to get the UKey component service running (GET /v1/sealUKeyBinding/download) and where this browser
 * looks for it: the address is a plugin setting kept in this browser.
 */
export function UkeyAgentSetup({ onSaved }: { onSaved?: () => void }) {
  const { t } = useTranslation();
  const download = useAgentDownload();
  const [address, setAddress] = useState(agentUrl());
  const save = (raw: string) => {
    const url = normaliseAgentUrl(raw);
    if (!url) {
      toastWarning(t('ukeyMng.agent.addressInvalid'));
      return;
    }
    setAgentUrl(url);
    setAddress(url);
    toastSuccess(t('ukeyMng.agent.saved'));
    onSaved?.();
  };
  const d = download.data;
  return (
    <div data-testid="ukey-agent-setup">
      {download.isPending ? (
        <Spin size="small" />
      ) : d ? (
        <Descriptions
          size="small"
          column={1}
          bordered
          title={t('ukeyMng.download.title')}
          data-testid="ukey-agent-download"
          items={[
            {
              key: 'version',
              label: t('ukeyMng.download.version'),
              children: (
                <Space>
                  <span>
                    {d.name} {d.version}
                  </span>
                  {d.packaged ? null : <Tag>{t('ukeyMng.download.notPackaged')}</Tag>}
                </Space>
              ),
            },
            { key: 'url', label: t('ukeyMng.download.defaultUrl'), children: d.defaultUrl },
            {
              key: 'req',
              label: t('ukeyMng.download.requirements'),
              children: (
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {d.requirements.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              ),
            },
            {
              key: 'steps',
              label: t('ukeyMng.download.steps'),
              children: (
                <ol style={{ margin: 0, paddingInlineStart: 18 }}>
                  {d.steps.map((s) => (
                    <li key={s}>
                      <Typography.Text>{s}</Typography.Text>
                    </li>
                  ))}
                </ol>
              ),
            },
          ]}
        />
      ) : null}
      <div style={{ marginTop: 12 }}>
        <div style={{ marginBottom: 6, color: 'var(--os-text-2)' }}>{t('ukeyMng.agent.address')}</div>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            value={address}
            placeholder={DEFAULT_AGENT_URL}
            onChange={(e) => setAddress(e.target.value)}
            onPressEnter={() => save(address)}
            data-testid="ukey-agent-address"
          />
          <Button onClick={() => save(address)} data-testid="ukey-agent-address-save">
            {t('ukeyMng.agent.save')}
          </Button>
          <Button
            onClick={() => {
              setAgentUrl(null);
              setAddress(DEFAULT_AGENT_URL);
              onSaved?.();
            }}
          >
            {t('ukeyMng.agent.reset')}
          </Button>
        </Space.Compact>
      </div>
    </div>
  );
}
