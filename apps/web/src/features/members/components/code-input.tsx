import { SMS_CODE_LENGTH } from '@openseal/core';
import { Button, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** An SMS-code field with its send button and countdown. */
export function CodeInput(props: {
  value?: string;
  onChange?: (value: string) => void;
  onSend: () => void;
  sending: boolean;
  countdown: number;
  sent: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Space.Compact block>
      <Input
        value={props.value}
        onChange={(e) => props.onChange?.(e.target.value)}
        maxLength={SMS_CODE_LENGTH}
        inputMode="numeric"
        data-testid={`${props.testId}-code`}
      />
      <Button
        onClick={props.onSend}
        loading={props.sending}
        disabled={props.countdown > 0}
        data-testid={`${props.testId}-send`}
      >
        {props.countdown > 0
          ? t('login.resend', { seconds: props.countdown })
          : props.sent
            ? t('members.resendCode')
            : t('login.sendCode')}
      </Button>
    </Space.Compact>
  );
}
