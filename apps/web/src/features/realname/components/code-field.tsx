import { checkSmsCode, SMS_CODE_LENGTH, type Language } from '@openseal/core';
import { Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../../lib/form-rules';

export interface CodeFieldProps {
  language: Language;
  countdown: number;
  sending: boolean;
  onSend: () => void;
  extra?: string;
}

/** The SMS code input with its "get code" button and the resend countdown. */
export function CodeField({ language, countdown, sending, onSend, extra }: CodeFieldProps) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('realNameFlow.code')} required extra={extra}>
      <Space.Compact block>
        <Form.Item name="code" noStyle rules={[checkRule(checkSmsCode, language)]}>
          <Input
            maxLength={SMS_CODE_LENGTH}
            inputMode="numeric"
            placeholder={t('realNameFlow.codePlaceholder')}
            data-testid="realname-code"
          />
        </Form.Item>
        <Button onClick={onSend} loading={sending} disabled={countdown > 0} data-testid="realname-send-code">
          {countdown > 0 ? t('login.resend', { seconds: countdown }) : t('login.sendCode')}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}
