import * as oidc from 'openid-client';

/** The OpenID provider this platform trusts, and how it knows us. */
export interface SsoSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** Our callback address as registered at the provider: `<public origin>/v1/sso/callback`. */
  redirectUri: string;
  scope?: string;
}

/** What a verified login tells us about the person. */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  /** A mainland mobile the provider vouches for (`phone_number_verified`), or null. */
  verifiedMobile: string | null;
  name: string | null;
  /** Organisation claims some providers add (`org_uscc`, `org_name`). */
  orgUscc: string | null;
  orgName: string | null;
}

export interface RelyingParty {
  authorizationUrl(p: { state: string; nonce: string; codeVerifier: string }): Promise<string>;
  /** Exchanges the code of a callback's query and verifies the ID token; throws on any protocol failure. */
  finish(
    query: URLSearchParams,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<SsoIdentity>;
  randomSecrets(): { state: string; nonce: string; codeVerifier: string };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Provider numbers arrive as E.164 (+86…) or bare; only mainland mobiles become accounts. */
export function mainlandMobile(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const digits = raw.replace(/[\s-]/g, '').replace(/^(\+?86)(?=1\d{10}$)/, '');
  return /^1[3-9]\d{9}$/.test(digits) ? digits : null;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 200) : null);

/** An authorization-code + PKCE relying party over openid-client; the provider's metadata is discovered once. */
export function createRelyingParty(settings: SsoSettings): RelyingParty {
  const issuer = new URL(settings.issuerUrl);
  // Plain http is accepted only for a provider on this machine (development and tests).
  const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
  let discovered: Promise<oidc.Configuration> | null = null;

  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(
        issuer,
        settings.clientId,
        settings.clientSecret,
        oidc.ClientSecretBasic(settings.clientSecret),
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((e: unknown) => {
        // A provider that was down must be retried on the next login, not remembered as down.
        discovered = null;
        throw e;
      });
    return discovered;
  }

  return {
    randomSecrets: () => ({
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    }),

    async authorizationUrl({ state, nonce, codeVerifier }) {
      const config = await configuration();
      return oidc
        .buildAuthorizationUrl(config, {
          redirect_uri: settings.redirectUri,
          scope: settings.scope ?? 'openid profile phone',
          response_type: 'code',
          state,
          nonce,
          code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
        })
        .toString();
    },

    async finish(query, checks) {
      const config = await configuration();
      // The token request repeats the redirect URI, so the registered one is used, never the request's host.
      const callbackUrl = new URL(settings.redirectUri);
      callbackUrl.search = query.toString();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the token response carries no ID token');
      let claims: Record<string, unknown> = { ...idClaims };
      // Providers that keep scope claims out of the ID token serve them from userinfo, for the same subject.
      if (claims.phone_number === undefined && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...claims };
      }
      return {
        issuer: idClaims.iss,
        subject: idClaims.sub,
        verifiedMobile: claims.phone_number_verified === true ? mainlandMobile(claims.phone_number) : null,
        name: str(claims.name),
        orgUscc: str(claims.org_uscc),
        orgName: str(claims.org_name),
      };
    },
  };
}
