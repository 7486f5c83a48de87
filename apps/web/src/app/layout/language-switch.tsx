import { GlobalOutlined } from '@ant-design/icons';
import type { Language } from '@openseal/core';
import { Button, Dropdown } from 'antd';
import { useLanguage } from '../../hooks/use-language';

const LABELS: Record<Language, string> = { 'zh-CN': '简体中文', en: 'English' };

export function LanguageSwitch() {
  const [language, setLanguage] = useLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: (Object.keys(LABELS) as Language[]).map((key) => ({
          key,
          label: <span data-testid={`language-option-${key}`}>{LABELS[key]}</span>,
        })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="language-switch">
        {language === 'en' ? 'EN' : '中文'}
      </Button>
    </Dropdown>
  );
}
