import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme as antTheme, type ThemeConfig } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { registerMessageApi } from '../lib/feedback';
import { normaliseLanguage } from '../lib/language';
import { i18n } from './i18n';

export const THEME: ThemeConfig = {
  algorithm: antTheme.defaultAlgorithm,
  token: {
    colorPrimary: '#1554ad',
    colorInfo: '#1554ad',
    colorLink: '#1554ad',
    borderRadius: 4,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { headerBg: '#ffffff', bodyBg: '#f3f5f8', footerBg: '#1f2a3d' },
    Menu: { itemBg: 'transparent', horizontalItemSelectedColor: '#1554ad' },
  },
};

/** Hands the context-bound message API of <App> to non-React code. */
function FeedbackBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    registerMessageApi(message);
    return () => registerMessageApi(null);
  }, [message]);
  return null;
}

function LocalisedAnt({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const language = normaliseLanguage(instance.language);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={THEME}>
      <AntApp>
        <FeedbackBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <LocalisedAnt>{children}</LocalisedAnt>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
