import { MobileOutlined } from '@ant-design/icons';
import { checkMobile } from '@openseal/core';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRule } from '../../../lib/form-rules';
import { normaliseLanguage } from '../../../lib/language';

/** The mobile-number field both login forms use, checked on blur by the core validator. */
export function MobileField({ testId, autoComplete }: { testId: string; autoComplete: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Form.Item
      name="mobile"
      validateTrigger="onBlur"
      rules={[checkRule(checkMobile, normaliseLanguage(i18n.language))]}
    >
      <Input
        prefix={<MobileOutlined />}
        placeholder={t('login.mobilePlaceholder')}
        maxLength={11}
        inputMode="numeric"
        autoComplete={autoComplete}
        data-testid={testId}
      />
    </Form.Item>
  );
}
