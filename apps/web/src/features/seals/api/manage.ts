import type { contracts } from '@openseal/core';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiPost } from '../../../lib/api-client';
import { useAccessToken } from '../../../hooks/use-session';
import { SEALS_KEY } from './seals';
import { usePermissions } from '../../../hooks/use-permissions';

/**
 * Calls of the my-seals page (spec section 7, Seals): enable, disable or freeze, cancel (all or none),
 * renew a certificate, the caller's permission points and the personal seals that no longer match.
 * Every refusal comes back as the server's catalogued message.
 */
export type SealBatchResult = z.output<typeof contracts.sealBatchResponse>;
export type CertRenewal = z.output<typeof contracts.certRenewalResponse>;
export type PersonSealCheck = z.output<typeof contracts.checkPersonSealNew>;

/** The caller's permission points; management buttons show only with `seal.manage`. */
export const useSealPoints = () => usePermissions();

/** Personal name seals whose name no longer matches the person's (empty inside an organisation). */
export function usePersonSealCheck(enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'personSealCheck', token],
    queryFn: () => apiPost<PersonSealCheck>('/v1/sealChanges/checkPersonSealNew', {}),
    enabled: enabled && token !== null,
    staleTime: 60_000,
  });
}

export function enableSeals(sealCodes: string[]) {
  return apiPost<SealBatchResult>('/v1/seals/enableSeal', { sealCodes });
}

/** Disables (or, with `freeze`, freezes) seals: their certificates go on hold. */
export function disableSeals(sealCodes: string[], freeze: boolean) {
  return apiPost<SealBatchResult>('/v1/seals/disableSeal', { sealCodes, freeze });
}

/** Cancels seals: in use they are voided, expired ones scrapped; their certificates are revoked. */
export function invalidateSeals(sealCodes: string[]) {
  return apiPost<SealBatchResult>('/v1/seals/sealInvalid', { sealCodes });
}

/** Renews a seal's certificate (within 30 days of its end): a new certificate, one more year. */
export function renewSealCertificate(sealCode: string) {
  return apiPost<CertRenewal>('/v1/seals/certRenewal', { sealCode }, { timeoutMs: 90_000 });
}
