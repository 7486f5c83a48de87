import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenID provider (oidc-provider) on a random loopback port, for the single sign-on tests of the
 * server and of the browser. Consent is granted in code for what the client asked for. Login is either
 * approved in code (`interactive: false`: whoever `state.nextSubject` names signs in) or done by a person
 * in a plain HTML login form with a cancel button (`interactive: true`), as a browser meets it.
 */

/** Claims of the provider's accounts, by subject; each test registers the people it logs in. */
export type Claims = {
  name?: string;
  phone_number?: string;
  phone_number_verified?: boolean;
  org_uscc?: string;
  org_name?: string;
};

export interface OidcProviderOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  interactive?: boolean;
}

/** The part of oidc-provider these tests drive (the package ships no type declarations). */
interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string };
  }>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: new (p: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  };
}
const oidcProviderModule = 'oidc-provider';
const { default: Provider } = (await import(oidcProviderModule)) as {
  default: new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginForm(uid: string, error: string | null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider: sign in</title>
<style>body{font:15px system-ui,sans-serif;background:#eef1f5;display:flex;justify-content:center;padding-top:80px}
form{background:#fff;padding:28px 32px;border-radius:8px;width:320px;box-shadow:0 4px 18px #0002}
label{display:block;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:8px}
.row{display:flex;gap:8px;margin-top:20px}button{flex:1;padding:9px}.error{color:#c0392b}</style></head>
<body><form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
<h2>Test identity provider</h2>
${error ? `<p class="error" data-testid="op-error">${escapeHtml(error)}</p>` : ''}
<label for="login">Username</label><input id="login" name="login" data-testid="op-login" required>
<label for="password">Password</label><input id="password" name="password" type="password" data-testid="op-password" required>
<div class="row"><button type="submit" data-testid="op-submit">Sign in</button>
<button type="submit" formaction="/interaction/${escapeHtml(uid)}/abort" formnovalidate data-testid="op-cancel">Cancel</button></div>
</form></body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcProvider(options: OidcProviderOptions) {
  const accounts = new Map<string, Claims>();
  /** Passwords of the interactive login form, by subject. */
  const passwords = new Map<string, string>();
  const state = { nextSubject: '', codeTtlSeconds: 60 };
  const server: Server = createServer();
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: ['provider-cookie-key-for-tests'] },
    claims: {
      openid: ['sub'],
      profile: ['name'],
      phone: ['phone_number', 'phone_number_verified'],
      org: ['org_uscc', 'org_name'],
    },
    scopes: ['openid', 'profile', 'phone', 'org'],
    features: { devInteractions: { enabled: false } },
    ttl: { AuthorizationCode: () => state.codeTtlSeconds },
    findAccount: async (_ctx: unknown, sub: string) => {
      const claims = accounts.get(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
  });
  const handle = provider.callback();

  async function grantConsent(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({
      accountId: details.session!.accountId,
      clientId: String(details.params.client_id),
    });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  async function interact(req: IncomingMessage, res: ServerResponse) {
    const action = /^\/interaction\/[^/?]+\/(login|abort)/.exec(req.url ?? '')?.[1];
    if (req.method === 'POST' && action === 'abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled the login' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (req.method === 'POST' && action === 'login') {
      const form = await formBody(req);
      const login = form.get('login') ?? '';
      const password = passwords.get(login);
      if (!accounts.has(login) || password === undefined || password !== form.get('password')) {
        const { uid } = await provider.interactionDetails(req, res);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginForm(uid, 'Unknown username or wrong password'));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: login } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name !== 'login') return grantConsent(req, res);
    if (options.interactive) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(loginForm(details.uid, null));
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: state.nextSubject } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void handle(req, res);
    interact(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    accounts,
    passwords,
    state,
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}

export type TestOidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;
