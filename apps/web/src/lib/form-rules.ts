import type { Check, Language } from '@openseal/core';
import { messageFor } from '@openseal/core';
import type { Rule } from 'antd/es/form';

/** A form rule from a core validator: the same check the server applies, its message in the UI language. */
export function checkRule(check: (value: string | undefined) => Check, language: Language): Rule {
  return {
    validator: async (_, value: string | undefined) => {
      const result = check(value);
      if (!result.ok) throw new Error(messageFor(result.key, language));
    },
  };
}
