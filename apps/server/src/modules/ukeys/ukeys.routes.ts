import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, contracts as c } from '@openseal/core';
import type { Db } from '@openseal/db';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { ModuleDeps } from '../module-deps';
import { UNWIRED_SEAL_DIRECTORY, type SealDirectory } from './seal-directory';
import { createUkeyApplyService } from './ukey-apply.service';
import { createUkeysService } from './ukeys.service';
import { createUkeyPermissionsService } from './ukey-permissions.service';
import type { AuthContext } from '../session/session.service';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The UKey module's seams: to the seals module (see SealDirectory), and to will-auth, which confirms
     * intent with a bound key's signature (see UkeyWillProof).
     */
    ukeys: { useSealDirectory(directory: SealDirectory): void; willProof: UkeyWillProof };
  }
}

/** What will-auth (the sign service) needs of UKeys: the keys one may confirm with, and the proof. */
export interface UkeyWillProof {
  /** The organisation's live bound keys, or none when the caller may not use keys (seal.view, real name). */
  liveKeys(db: Db, ctx: AuthContext): Promise<{ ukeySn: string; name: string }[]>;
  /** A bound key of the caller's organisation is present: its signature over the caller's challenge. */
  prove(
    db: Db,
    ctx: AuthContext,
    proof: { ukeySn: string; challengeId: string; signature: string },
    ip: string | null,
  ): Promise<void>;
}

/**
 * UKeys: bindings (`/v1/sealUKeyBinding/*`) and UKey applications with their seal import
 * (`/v1/pub/ukeyApply/*`). Every route needs a session and an organisation; the services check real
 * name and permission (seal.manage to manage bindings, seal.view to use them, the receiveUkey scene
 * for applications). The plugin is not encapsulated only so `app.ukeys` reaches the root instance.
 */
async function ukeysRoutes(
  app: FastifyInstance,
  deps: ModuleDeps & { seals?: SealDirectory },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  let directory = deps.seals ?? UNWIRED_SEAL_DIRECTORY;
  const seals = () => directory;
  const ukeys = createUkeysService({ pki: deps.pki, organizes: deps.organizes, seals });
  const applies = createUkeyApplyService({ pki: deps.pki, ukeys, seals });
  const permissions = createUkeyPermissionsService({ ukeys });
  const willProof: UkeyWillProof = {
    async liveKeys(db, ctx) {
      try {
        return await ukeys.liveKeys(db, ctx);
      } catch (err) {
        if (err instanceof AppError) return [];
        throw err;
      }
    },
    async prove(db, ctx, proof, ip) {
      await ukeys.verifySign(db, ctx, proof, ip);
    },
  };
  app.decorate('ukeys', { useSealDirectory: (d: SealDirectory) => void (directory = d), willProof });
  const tags = ['UKeys'];
  const ip = (req: Parameters<typeof clientOf>[0]) => clientOf(req).ip;
  const B = '/v1/sealUKeyBinding';
  const A = '/v1/pub/ukeyApply';

  r.post(
    `${B}/challenge`,
    {
      schema: {
        tags,
        summary: 'A one-time text for a key to sign (proof of possession for binding, done and verifySign)',
        body: c.ukeyChallengeRequest,
        response: responses(c.ukeyChallengeOut),
      },
    },
    async (req) => ok(await ukeys.challenge(app.db, req.requireAuth(), req.body.ukeySn), req.lang),
  );

  r.post(
    `${B}/binding`,
    {
      schema: {
        tags,
        summary:
          'Bind a key: its certificate (issued by this platform to this organisation, good) and its signature over a challenge (seal.manage)',
        body: c.ukeyBindRequest,
        response: responses(c.ukeyOut),
      },
    },
    async (req) => ok(await ukeys.bind(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );

  r.post(
    `${B}/cancelBinding`,
    {
      schema: {
        tags,
        summary: 'Unbind a key bound here (seal.manage)',
        body: c.ukeySnRequest,
        response: responses(z.object({ ukeySn: z.string(), status: z.literal('unbound') })),
      },
    },
    async (req) =>
      ok(
        await ukeys.cancelBinding(app.db, req.requireAuth(), req.body.ukeySn, ip(req), req.keySerial),
        req.lang,
      ),
  );

  r.post(
    `${B}/uKeyList`,
    {
      schema: {
        tags,
        summary:
          "The organisation's bound keys: online tab authentication keys, offline tab signing keys (seal.manage)",
        body: c.ukeyListRequest.prefault({}),
        response: responses(c.ukeyPage),
      },
    },
    async (req) => ok(await ukeys.list(app.db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    `${B}/verifySign`,
    {
      schema: {
        tags,
        summary: "Check a bound key's signature over a challenge with its certificate (seal.view)",
        body: c.ukeyVerifySignRequest,
        response: responses(c.ukeyVerifyOut),
      },
    },
    async (req) => ok(await ukeys.verifySign(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );

  r.post(
    `${B}/certProperties`,
    {
      schema: {
        tags,
        summary: 'Certificate properties of a bound key, or of a certificate read from a key (seal.view)',
        body: c.ukeyCertPropertiesRequest,
        response: responses(c.ukeyCertOut),
      },
    },
    async (req) => ok(await ukeys.certProperties(app.db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    `${B}/updateBindingSeal`,
    {
      schema: {
        tags,
        summary: 'Which seals a bound key carries, and its name (seal.manage; keys bound here only)',
        body: c.ukeyUpdateSealsRequest,
        response: responses(c.ukeyOut),
      },
    },
    async (req) =>
      ok(
        await ukeys.updateBindingSeal(app.db, req.requireAuth(), req.body, ip(req), req.keySerial),
        req.lang,
      ),
  );

  r.get(
    `${B}/download`,
    {
      schema: {
        tags,
        summary: 'The UKey agent (local component service): version, requirements, how to run it',
        response: responses(c.ukeyAgentDownloadOut),
      },
    },
    async (req) => {
      req.requireAuth();
      return ok(ukeys.agentDownload(req.lang), req.lang);
    },
  );

  r.get(
    `${B}/getUKeyBindSeals`,
    {
      schema: {
        tags,
        summary: 'The seals a bound key carries (seal.view)',
        querystring: c.ukeySnRequest,
        response: responses(c.ukeyBindSealsOut),
      },
    },
    async (req) => ok(await ukeys.bindSeals(app.db, req.requireAuth(), req.query.ukeySn), req.lang),
  );

  // --- applications ---

  r.post(
    `${A}/apply`,
    {
      schema: {
        tags,
        summary: 'Apply for a UKey: authentication, signing, replacement or renewal (receiveUkey)',
        body: c.ukeyApplyRequest,
        response: responses(c.ukeyApplyOut),
      },
    },
    async (req) => ok(await applies.apply(app.db, req.requireAuth(), req.body, ip(req), req.lang), req.lang),
  );

  r.post(
    `${A}/list`,
    {
      schema: {
        tags,
        summary: "The organisation's UKey applications (receiveUkey)",
        body: c.ukeyApplyListRequest.prefault({}),
        response: responses(c.ukeyApplyPage),
      },
    },
    async (req) => ok(await applies.list(app.db, req.requireAuth(), req.body, req.lang), req.lang),
  );

  r.post(
    `${A}/detail`,
    {
      schema: {
        tags,
        summary: 'A UKey application with its import history (receiveUkey)',
        body: c.ukeyApplyNoRequest,
        response: responses(c.ukeyApplyDetail),
      },
    },
    async (req) => ok(await applies.detail(app.db, req.requireAuth(), req.body.applyNo, req.lang), req.lang),
  );

  r.post(
    `${A}/info`,
    {
      schema: {
        tags,
        summary: 'What the application form needs: holder, kinds, limits, bound keys (receiveUkey)',
        response: responses(c.ukeyApplyInfoOut),
      },
    },
    async (req) => ok(await applies.info(app.db, req.requireAuth()), req.lang),
  );

  r.post(
    `${A}/revoke`,
    {
      schema: {
        tags,
        summary: 'Revoke an application that is to import or failed (receiveUkey)',
        body: c.ukeyApplyNoRequest,
        response: responses(c.ukeyApplyOut),
      },
    },
    async (req) =>
      ok(
        await applies.executeOpt(
          app.db,
          req.requireAuth(),
          { applyNo: req.body.applyNo, opt: 'revoke' },
          ip(req),
          req.lang,
        ),
        req.lang,
      ),
  );

  r.post(
    `${A}/makingData`,
    {
      schema: {
        tags,
        summary:
          'What the maker writes into the key: the certificate issued for the public key it generated, and the seal images; starts the import (receiveUkey)',
        body: c.ukeyMakingDataRequest,
        response: responses(c.ukeyMakingDataOut),
      },
    },
    async (req) => ok(await applies.makingData(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );

  r.post(
    `${A}/done`,
    {
      schema: {
        tags,
        summary: 'Finish the import: the key signs a challenge, and is bound (receiveUkey)',
        body: c.ukeyApplyDoneRequest,
        response: responses(c.ukeyApplyOut),
      },
    },
    async (req) => ok(await applies.done(app.db, req.requireAuth(), req.body, ip(req), req.lang), req.lang),
  );

  r.post(
    `${A}/executeOpt`,
    {
      schema: {
        tags,
        summary: 'Mark an import failed, retry it, or revoke the application (receiveUkey)',
        body: c.ukeyExecuteOptRequest,
        response: responses(c.ukeyApplyOut),
      },
    },
    async (req) =>
      ok(await applies.executeOpt(app.db, req.requireAuth(), req.body, ip(req), req.lang), req.lang),
  );

  // --- an agent's UKey permission requests ---
  const P = '/v1/ukey/user/operation';

  r.post(
    `${P}/agentInsertUKeyPromotePermission`,
    {
      schema: {
        tags,
        summary:
          'A member who inserted a bound UKey asks for the permission an operation on it needs: held already, or a request the legal representative or super administrator decides; an approval allows that operation on that key once within 30 minutes while x-key-serial names the key',
        body: c.agentPromoteRequest,
        response: responses(c.agentPromoteResponse),
      },
    },
    async (req) => ok(await permissions.promote(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );

  r.post(
    `${P}/promotePermission/list`,
    {
      schema: {
        tags,
        summary:
          'UKey permission requests: the organisation’s for its legal representative and super administrator, one’s own for everyone else',
        body: c.ukeyPermissionListRequest,
        response: responses(c.ukeyPermissionPage),
      },
    },
    async (req) => ok(await permissions.list(app.db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    `${P}/promotePermission/decide`,
    {
      schema: {
        tags,
        summary:
          'Approve or reject a UKey permission request (legal representative or super administrator, holding the point, never their own)',
        body: c.ukeyPermissionDecisionRequest,
        response: responses(c.ukeyPermissionRequestOut),
      },
    },
    async (req) => ok(await permissions.decide(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );
}

export default fp(ukeysRoutes, { name: 'ukeys', dependencies: ['auth'] });
