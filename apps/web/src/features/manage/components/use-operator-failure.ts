import { App } from 'antd';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { isOperatorApiError } from '../api/operator-api';
import { clearOperatorSession, isOperatorSessionEnd, MANAGE_LOGIN_PATH } from '../model/operator-session';

/**
 * What the console does with a failed call: a toast with the server's message, and when the operator
 * session has ended (13001-13003) the token is forgotten and the console login opens.
 */
export function useOperatorFailure(): (error: unknown) => void {
  const navigate = useNavigate();
  const { message } = App.useApp();
  return useCallback(
    (error: unknown) => {
      const text = error instanceof Error ? error.message : String(error);
      if (isOperatorApiError(error) && isOperatorSessionEnd(error.code)) {
        clearOperatorSession();
        void message.error({ content: text, key: 'manage-session' });
        void navigate(MANAGE_LOGIN_PATH, { replace: true });
        return;
      }
      void message.error({ content: text, key: text });
    },
    [message, navigate],
  );
}
