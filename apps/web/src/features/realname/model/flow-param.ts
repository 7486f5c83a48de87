import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The flow being shown lives in the address (`?flowId=`), so a reload or a shared link keeps the result. */
export function useFlowParam(): [string | null, (flowId: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const flowId = params.get('flowId');
  const set = useCallback(
    (next: string | null) =>
      setParams(
        (current) => {
          const copy = new URLSearchParams(current);
          if (next) copy.set('flowId', next);
          else copy.delete('flowId');
          return copy;
        },
        { replace: false },
      ),
    [setParams],
  );
  return [flowId && flowId.length <= 64 ? flowId : null, set];
}
