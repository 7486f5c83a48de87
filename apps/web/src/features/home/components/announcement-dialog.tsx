import { NotificationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/app-dialog';
import { readStorage, SESSION_STORAGE_KEYS, writeStorage } from '../../../lib/storage';

/** The announcement shows once on home per browser session when DISPLAY_ANNOUNCEMENT is on. */
export function AnnouncementDialog({ enabled, content }: { enabled: boolean; content: string | null }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(
    () => readStorage(SESSION_STORAGE_KEYS.announcementShown, 'session') === '1',
  );
  const open = enabled && Boolean(content) && !dismissed;
  const close = () => {
    writeStorage(SESSION_STORAGE_KEYS.announcementShown, '1', 'session');
    setDismissed(true);
  };
  return (
    <AppDialog
      open={open}
      title={
        <span>
          <NotificationOutlined /> {t('home.announcementTitle')}
        </span>
      }
      onCancel={close}
      footer={
        <Button type="primary" onClick={close} data-testid="announcement-ok">
          {t('common.ok')}
        </Button>
      }
    >
      <div className="os-announcement" data-testid="announcement-content">
        {content}
      </div>
    </AppDialog>
  );
}
