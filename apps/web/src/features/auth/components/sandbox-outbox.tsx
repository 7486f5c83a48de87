import { ExperimentOutlined } from '@ant-design/icons';
import { Alert, Button, List, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSmsOutbox } from '../api/auth';

/** Shown only when the server says SMS is in sandbox mode: a labelled notice and the outbox. */
export function SandboxOutbox({ mobile }: { mobile: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const outbox = useSmsOutbox(mobile, open);
  const messages = outbox.data?.messages ?? [];
  return (
    <Alert
      className="os-sandbox"
      type="warning"
      showIcon
      icon={<ExperimentOutlined />}
      data-testid="sandbox-notice"
      title={t('login.sandboxTitle')}
      description={
        <div>
          <div>{t('login.sandboxNotice')}</div>
          <Button
            type="link"
            size="small"
            className="os-sandbox__toggle"
            onClick={() => setOpen((v) => !v)}
            data-testid="sandbox-outbox-link"
          >
            {t('login.viewOutbox')}
          </Button>
          {open ? (
            <div className="os-sandbox__panel" data-testid="sandbox-outbox">
              <Typography.Text strong>{t('login.outboxTitle')}</Typography.Text>
              {messages.length === 0 ? (
                <div className="os-sandbox__waiting">{t('login.outboxWaiting')}</div>
              ) : (
                <List
                  size="small"
                  dataSource={messages.slice(0, 3)}
                  renderItem={(m, index) => (
                    <List.Item key={m.id}>
                      <div>
                        {m.code ? (
                          <Tag color="gold" data-testid={index === 0 ? 'sandbox-outbox-code' : undefined}>
                            {t('login.outboxCode')}: {m.code}
                          </Tag>
                        ) : null}
                        <Typography.Text type="secondary">
                          {new Date(m.createdAt).toLocaleTimeString()}
                        </Typography.Text>
                        <div className="os-sandbox__body">{m.body}</div>
                      </div>
                    </List.Item>
                  )}
                />
              )}
            </div>
          ) : null}
        </div>
      }
    />
  );
}
