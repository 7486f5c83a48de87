import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { ModuleDeps } from '../module-deps';
import type { SealsModule } from './seals-module';

export type SealsRoutesOptions = ModuleDeps & { sealsModule: SealsModule };

/**
 * Routes of the seal service (spec section 7: Seals, Seal changes, Authorisation, Misc sealRemind).
 * Order, payment and UKey-binding routes of those groups belong to their own modules.
 */
export default async function sealsRoutes(app: FastifyInstance, deps: SealsRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { seals, changes, authorizations } = deps.sealsModule;
  const db = app.db;
  const tags = ['Seals'];

  // --- kinds and previews ---

  r.get(
    '/v1/seals/sealTypes',
    {
      schema: {
        tags,
        summary: 'Seal kinds the current space may apply for, with their drawing types and sizes',
        response: responses(c.sealKindList),
      },
    },
    async (req) => ok(await seals.sealTypes(db, req.requireAuth(), req.lang), req.lang),
  );

  r.get(
    '/v1/seals/personal/sealTypes',
    {
      schema: {
        tags,
        summary: 'Personal seal kinds (name seal, hand-drawn seal)',
        response: responses(c.sealKindList),
      },
    },
    async (req) => ok(await seals.sealTypes(db, req.requireAuth(), req.lang, 'person'), req.lang),
  );

  r.post(
    '/v1/seals/getCustomSealList',
    {
      schema: {
        tags,
        summary: 'Custom seal kinds (department, industry, practice) of CUSTOM_SEAL_CONFIG',
        response: responses(c.customSealList),
      },
    },
    async (req) => ok(await seals.customSealList(db, req.requireAuth(), req.lang), req.lang),
  );

  r.post(
    '/v1/seals/getCustomSealListV2',
    {
      schema: {
        tags,
        summary:
          'Custom seal kinds on offer, and the space’s custom seals page by page (kind, status, carrier, name, applicant)',
        body: c.customSealListV2Request,
        response: responses(c.customSealListV2),
      },
    },
    async (req) => ok(await seals.customSealListV2(db, req.requireAuth(), req.body, req.lang), req.lang),
  );

  r.post(
    '/v1/seals/moulages',
    {
      schema: {
        tags,
        summary: 'Preview an impression: the template and its PNG (400 dpi, transparent, ≤ 50 KB)',
        body: c.moulagePreviewRequest,
        response: responses(c.moulagePreview),
      },
    },
    async (req) => ok(await seals.preview(db, req.requireAuth(), req.body), req.lang),
  );

  r.get(
    '/v1/seals/clearFreehandMoulage',
    {
      schema: {
        tags,
        summary:
          'Discard the caller’s hand-drawn pictures (sealImage uploads of this space) that no seal, change or application uses: one, or all',
        querystring: c.clearFreehandQuery,
        response: responses(c.clearFreehandResult),
      },
    },
    async (req) =>
      ok(await seals.clearFreehand(db, req.requireAuth(), req.query.fileKey, clientOf(req)), req.lang),
  );

  // --- applications (work orders) ---

  r.post(
    '/v1/seals/sealApply',
    {
      schema: {
        tags,
        summary:
          'Apply for a seal (cloud or UKey), or submit a saved (pre-created) application by applyNo; the operator reviews it',
        body: c.sealApplyRequest,
        response: responses(c.workOrder),
      },
    },
    async (req) => ok(await seals.apply(db, req.requireAuth(), req.body, clientOf(req), req.lang), req.lang),
  );

  r.get(
    '/v1/seals/sealApply/:applyNo',
    {
      schema: {
        tags,
        summary: 'A seal application: status, claim and production',
        params: c.applyNoParams,
        response: responses(c.workOrder),
      },
    },
    async (req) => ok(await seals.workOrder(db, req.requireAuth(), req.params.applyNo, req.lang), req.lang),
  );

  r.post(
    '/v1/seals/sealApplys',
    {
      schema: {
        tags,
        summary: 'Seal applications of the current space (cloud or UKey), newest first',
        body: c.sealApplyListRequest,
        response: responses(c.workOrderPage),
      },
    },
    async (req) => ok(await seals.workOrders(db, req.requireAuth(), req.body, req.lang), req.lang),
  );

  r.post(
    '/v1/seals/sealApply/revoke/:applyNo',
    {
      schema: {
        tags,
        summary: 'Withdraw an application that is pre-created or pending review',
        params: c.applyNoParams,
        response: responses(c.workOrder),
      },
    },
    async (req) =>
      ok(await seals.revoke(db, req.requireAuth(), req.params.applyNo, clientOf(req), req.lang), req.lang),
  );

  r.post(
    '/v1/seals/selfRetry',
    {
      schema: {
        tags,
        summary: 'Retry production after it failed',
        body: c.applyNoRequest,
        response: responses(c.activeFlowResponse),
      },
    },
    async (req) => ok(await seals.retry(db, req.requireAuth(), req.body.applyNo, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/seals/checkSealAsync',
    {
      schema: {
        tags,
        summary: 'Production state and progress of a claimed seal (ASYNCHRONOUS_SEAL_MAKE)',
        body: c.applyNoRequest,
        response: responses(c.checkSealAsync),
      },
    },
    async (req) => ok(await seals.checkAsync(db, req.requireAuth(), req.body.applyNo), req.lang),
  );

  // --- claim (seal collection) ---

  r.get(
    '/v1/seals/redirectUrl',
    {
      schema: {
        tags,
        summary:
          'A signed claim link for the legal representative (7 days): the address of /getSealFlow to send',
        querystring: c.claimLinkQuery,
        response: responses(c.claimLink),
      },
    },
    async (req) =>
      ok(
        await seals.claimLink(
          db,
          req.requireAuth(),
          req.query.applyNos
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
          clientOf(req),
        ),
        req.lang,
      ),
  );

  r.get(
    '/v1/seals/:getSealFlowId/sealTypes',
    {
      schema: {
        tags,
        summary: 'The seals a claim link offers (the link’s expires and sig in the query)',
        params: c.claimFlowParams,
        querystring: c.claimFlowQuery,
        response: responses(c.claimFlowSeals),
      },
    },
    async (req) =>
      ok(
        await seals.claimFlowSeals(db, req.requireAuth(), req.params.getSealFlowId, req.query, req.lang),
        req.lang,
      ),
  );

  r.get(
    '/v1/seals/identityCheck/:flowId',
    {
      schema: {
        tags,
        summary: 'Whether the caller is the legal representative who may claim through this link',
        params: c.identityCheckParams,
        querystring: c.claimFlowQuery,
        response: responses(c.identityCheck),
      },
    },
    async (req) =>
      ok(await seals.identityCheck(db, req.requireAuth(), req.params.flowId, req.query), req.lang),
  );

  r.post(
    '/v1/seals/getSealReceiveStatus',
    {
      schema: {
        tags,
        summary: 'Claim and production status of an application or of a claim link’s applications',
        body: c.receiveStatusRequest,
        response: responses(c.receiveStatus),
      },
    },
    async (req) => ok(await seals.receiveStatus(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/seals/receiveSeal/moulages',
    {
      schema: {
        tags,
        summary:
          'The impressions of the seals a claim page offers (a claim link’s, or applications of the space) awaiting the claim or made',
        body: c.receiveMoulagesRequest,
        response: responses(c.receiveMoulages),
      },
    },
    async (req) => ok(await seals.receiveMoulages(db, req.requireAuth(), req.body, req.lang), req.lang),
  );

  r.post(
    '/v1/seals/activeFlow',
    {
      schema: {
        tags,
        summary:
          'Claim seals (legal representative only, agreement accepted); production starts, as a job with ASYNCHRONOUS_SEAL_MAKE',
        body: c.activeFlowRequest,
        response: responses(c.activeFlowResponse),
      },
    },
    async (req) => ok(await seals.claim(db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );

  // --- seals ---

  r.get(
    '/v1/accounts/seals',
    {
      schema: {
        tags,
        summary: 'mySealList: the seals of the current space, with filters',
        querystring: c.sealListQuery,
        response: responses(c.sealPage),
      },
    },
    async (req) => ok(await seals.list(db, req.requireAuth(), req.query, req.lang), req.lang),
  );

  r.get(
    '/v1/seals/:sealCode',
    {
      schema: {
        tags,
        summary: 'A seal: image, template, validity, certificate, renewals, pending change',
        params: c.sealCodeParams,
        response: responses(c.sealDetail),
      },
    },
    async (req) => ok(await seals.detail(db, req.requireAuth(), req.params.sealCode, req.lang), req.lang),
  );

  r.get(
    '/v1/seals/:sealType/sealStatus',
    {
      schema: {
        tags,
        summary: 'Seals of one kind and open applications for it: whether another may be applied for',
        params: c.sealKindStatusParams,
        response: responses(c.sealKindStatus),
      },
    },
    async (req) => ok(await seals.kindStatus(db, req.requireAuth(), req.params.sealType), req.lang),
  );

  const batch = (path: string, summary: string, op: 'enable' | 'invalidate') =>
    r.post(
      path,
      { schema: { tags, summary, body: c.sealBatchRequest, response: responses(c.sealBatchResponse) } },
      async (req) =>
        ok(await seals.changeStatus(db, req.requireAuth(), req.body.sealCodes, op, clientOf(req)), req.lang),
    );
  batch(
    '/v1/seals/enableSeal',
    'Enable disabled or frozen seals (all or none); certificates released',
    'enable',
  );
  batch(
    '/v1/seals/sealInvalid',
    'Cancel seals (all or none): in use they are voided, expired ones scrapped; certificates revoked',
    'invalidate',
  );
  r.post(
    '/v1/seals/disableSeal',
    {
      schema: {
        tags,
        summary: 'Disable (or freeze) seals, all or none; certificates put on hold',
        body: c.sealDisableRequest,
        response: responses(c.sealBatchResponse),
      },
    },
    async (req) =>
      ok(
        await seals.changeStatus(
          db,
          req.requireAuth(),
          req.body.sealCodes,
          req.body.freeze ? 'freeze' : 'disable',
          clientOf(req),
        ),
        req.lang,
      ),
  );

  r.post(
    '/v1/seals/certRenewal',
    {
      schema: {
        tags,
        summary: 'Renew a seal’s certificate: within 30 days of expiry, one more year',
        body: c.sealCodeRequest,
        response: responses(c.certRenewalResponse),
      },
    },
    async (req) => ok(await seals.renew(db, req.requireAuth(), req.body.sealCode, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/seals/sealAvailable',
    {
      schema: {
        tags,
        summary: 'Whether a seal can be used now (normal, in validity, certificate good)',
        body: c.sealCodeRequest,
        response: responses(c.sealAvailable),
      },
    },
    async (req) => ok(await seals.available(db, req.requireAuth(), req.body.sealCode), req.lang),
  );

  r.get(
    '/v1/seals/valid/seal',
    {
      schema: {
        tags,
        summary:
          'Whether the space holds a usable seal, how many of each kind, and which kinds may still be applied for',
        response: responses(c.validSeal),
      },
    },
    async (req) => ok(await seals.validSeal(db, req.requireAuth(), req.lang), req.lang),
  );

  r.post(
    '/v1/seals/usable/info',
    {
      schema: {
        tags,
        summary:
          'Seals the caller may sign with now: their own, the organisation’s when they manage seals, else those authorised to them (uses and validity left)',
        body: c.usableInfoRequest,
        response: responses(c.usableInfo),
      },
    },
    async (req) => ok(await seals.usableInfo(db, req.requireAuth(), req.body, req.lang), req.lang),
  );

  r.post(
    '/v1/seals/active/refreshMoulagePreView',
    {
      schema: {
        tags,
        summary:
          'A seal redrawn from its template with the holder’s current registered name, beside its current look; the seal is not changed',
        body: c.refreshMoulageRequest,
        response: responses(c.refreshMoulagePreview),
      },
    },
    async (req) => ok(await changes.refreshPreview(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/seals/pushRefreshMoulage',
    {
      schema: {
        tags,
        summary:
          'Submit refreshed impressions as seal changes for review: the seals named, or every seal whose name no longer matches its holder’s',
        body: c.pushRefreshMoulageRequest,
        response: responses(c.pushRefreshMoulageResult),
      },
    },
    async (req) => ok(await changes.pushRefresh(db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );

  // --- changes ---

  const changeTags = ['Seal changes'];
  r.post(
    '/v1/sealChanges/',
    {
      schema: {
        tags: changeTags,
        summary: 'Change records of the current space',
        body: c.sealChangeListRequest,
        response: responses(c.sealChangePage),
      },
    },
    async (req) => ok(await changes.list(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sealChanges/applySealChange',
    {
      schema: {
        tags: changeTags,
        summary: "Change an organisation's seal: redrawn with the current name, or another style or title",
        body: c.applySealChangeRequest,
        response: responses(c.sealChange),
      },
    },
    async (req) =>
      ok(await changes.submit(db, req.requireAuth(), 'ordinary', req.body, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/sealChanges/personSealChange',
    {
      schema: {
        tags: changeTags,
        summary: "Change a personal name seal: redrawn with the person's current name",
        body: c.personSealChangeRequest,
        response: responses(c.sealChange),
      },
    },
    async (req) =>
      ok(await changes.submit(db, req.requireAuth(), 'personal', req.body, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/sealChanges/handPaintedSealChange',
    {
      schema: {
        tags: changeTags,
        summary: 'Change a hand-drawn seal: a new transparent PNG (≤ 50 KB)',
        body: c.handPaintedSealChangeRequest,
        response: responses(c.sealChange),
      },
    },
    async (req) =>
      ok(await changes.submit(db, req.requireAuth(), 'handPainted', req.body, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/sealChanges/getTempHandPaintedPic',
    {
      schema: {
        tags: changeTags,
        summary:
          'An uploaded hand-drawn PNG fitted to the seal’s size (the seal to change, or a new hand-drawn seal), as a preview; not stored',
        body: c.tempHandPaintedPicRequest,
        response: responses(c.tempHandPaintedPic),
      },
    },
    async (req) => ok(await changes.tempHandPaintedPic(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sealChanges/checkPersonSealNew',
    {
      schema: {
        tags: changeTags,
        summary: "Personal name seals that no longer match the person's name",
        response: responses(c.checkPersonSealNew),
      },
    },
    async (req) => ok(await changes.checkPersonSealNew(db, req.requireAuth()), req.lang),
  );

  r.get(
    '/v1/sealChanges/sealChangeDetail/:changeNo',
    {
      schema: {
        tags: changeTags,
        summary: 'A change: before and after, the new image, status',
        params: c.changeNoParams,
        response: responses(c.sealChange),
      },
    },
    async (req) => ok(await changes.detail(db, req.requireAuth(), req.params.changeNo), req.lang),
  );

  r.get(
    '/v1/sealChanges/cancelChangeFlow/:changeNo',
    {
      schema: {
        tags: changeTags,
        summary: 'Revoke a pending change (GET, as the spec has it); the seal is normal again',
        params: c.changeNoParams,
        response: responses(c.sealChange),
      },
    },
    async (req) =>
      ok(await changes.cancel(db, req.requireAuth(), req.params.changeNo, clientOf(req)), req.lang),
  );

  // --- authorisations ---

  const authTags = ['Seal authorisation'];
  r.post(
    '/v1/sealAuth/mySealsAuthorized',
    {
      schema: {
        tags: authTags,
        summary:
          "Seal authorisations: all of the organisation's (authorise permission) or the caller's own; `mine` keeps only the caller's own",
        body: c.sealAuthListRequest,
        response: responses(c.sealAuthPage),
      },
    },
    async (req) => ok(await authorizations.list(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sealAuth/addSealAuth',
    {
      schema: {
        tags: authTags,
        summary:
          'Authorise members or apps to use a seal: counted or unlimited uses, dated or permanent, app range',
        body: c.addSealAuthRequest,
        response: responses(c.addSealAuthResponse),
      },
    },
    async (req) => ok(await authorizations.add(db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/sealAuth/editSealAuth',
    {
      schema: {
        tags: authTags,
        summary: 'Change the uses, validity or app range of an authorisation in effect',
        body: c.editSealAuthRequest,
        response: responses(c.sealAuthorization),
      },
    },
    async (req) => ok(await authorizations.edit(db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/sealAuth/cancelAuth/:authCode',
    {
      schema: {
        tags: authTags,
        summary: 'Terminate an authorisation',
        params: c.authCodeParams,
        response: responses(c.sealAuthorization),
      },
    },
    async (req) =>
      ok(await authorizations.cancel(db, req.requireAuth(), req.params.authCode, clientOf(req)), req.lang),
  );

  r.get(
    '/v1/accounts/getAuthorSeals',
    {
      schema: {
        tags: authTags,
        summary: 'Seals the caller may use by authorisation now (in effect, in validity, uses left)',
        response: responses(c.addSealAuthResponse),
      },
    },
    async (req) => ok(await authorizations.authorizedToMe(db, req.requireAuth()), req.lang),
  );

  r.get(
    '/v1/sealAuth/sealAuthDetail/:authCode',
    {
      schema: {
        tags: authTags,
        summary: 'An authorisation and its remaining uses',
        params: c.authCodeParams,
        response: responses(c.sealAuthorization),
      },
    },
    async (req) => ok(await authorizations.detail(db, req.requireAuth(), req.params.authCode), req.lang),
  );

  // --- expiry tip ---

  const miscTags = ['Misc'];
  r.get(
    '/v1/sealRemind/getLastRemind',
    {
      schema: {
        tags: miscTags,
        summary:
          'The seal-expiry tip (certId, certType, remindType, message = days), or null; sealManage or receiveUkey scene',
        response: responses(c.sealRemind),
      },
    },
    async (req) => ok(await seals.lastRemind(db, req.requireAuth()), req.lang),
  );

  r.post(
    '/v1/sealRemind/saveOperationLog',
    {
      schema: {
        tags: miscTags,
        summary: 'Close the expiry tip of a certificate; answers the next tip or null',
        body: c.saveRemindLogRequest,
        response: responses(c.sealRemind),
      },
    },
    async (req) => ok(await seals.closeRemind(db, req.requireAuth(), req.body.certId), req.lang),
  );
}
