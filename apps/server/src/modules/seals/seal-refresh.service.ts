/**
 * What comes before a change of a seal's look: the seal redrawn from its template with its holder's
 * registered name as it is now (after an organisation or a person changed name), shown without touching
 * the seal (active/refreshMoulagePreView) or submitted as changes for the operator's review
 * (pushRefreshMoulage); and an uploaded hand-drawn picture fitted to a seal's size, shown as a temporary
 * preview and not stored (getTempHandPaintedPic). The issued seal changes only through the change table.
 */
import { AppError, contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { recordAudit } from '../audit/audit.repository';
import type { FilesService } from '../files/files.service';
import type { AuthContext } from '../session/session.service';
import { access, sha256 } from './seal-context';
import { CLOSED_SEAL } from './seal-core';
import { makeTemplate, renderSeal, sealDisplayName, sealSpec, sealText } from './seal-render';
import type { SealsService } from './seals.service';
import * as repo from './seals.repository';

type SealKind = contracts.SealKind;
type DrawType = contracts.SealDrawType;
const { SEAL_KIND_INFO, SEAL_TYPE_SIZE_MM } = contracts;

/** The change service's submission, as the push uses it. */
type Submit = (
  db: Db,
  ctx: AuthContext,
  type: 'ordinary' | 'personal',
  input: {
    sealCode: string;
    sealType?: DrawType | undefined;
    title?: string | undefined;
    title0?: string | undefined;
    securityLines?: boolean | undefined;
    reason: string;
  },
  client: { ip: string | null },
) => Promise<{ changeNo: string }>;

/** Whether a stored template draws the security lines (spec section 3 securityLineInfo). */
function hasSecurityLines(template: string | null): boolean {
  if (!template) return false;
  const t = JSON.parse(template) as { securityLineInfo?: { fontSize?: number } };
  return (t.securityLineInfo?.fontSize ?? 0) > 0;
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

export function createSealRefreshes(deps: {
  files: FilesService;
  internals: SealsService['internals'];
  submit: Submit;
}) {
  const { files } = deps;
  const { holderOf, handDrawn, ownSeal, resolveKind } = deps.internals;

  /**
   * The seal as it would be drawn now: its kind, drawing type and titles, with its holder's registered
   * name. A hand-drawn seal has no template to redraw; a seal still being made has none yet.
   */
  async function redraw(db: Db, s: repo.SealView, securityLines?: boolean) {
    const kind = s.seal_kind as SealKind;
    if (!SEAL_KIND_INFO[kind] || kind === 'personalHandDrawn') throw new AppError('sealChange.kindMismatch');
    if (!s.template || CLOSED_SEAL.has(s.status)) throw new AppError('seal.statusInvalid');
    const sealType = s.seal_type as DrawType;
    const holder = await holderOf(db, { organizationId: s.organization_id, personId: s.person_id });
    const text = sealText(kind, sealType, {
      name: holder.name,
      uscc: holder.uscc,
      title: s.title ?? undefined,
      title0: s.title0 ?? undefined,
    });
    const lines = securityLines ?? hasSecurityLines(s.template);
    const template = makeTemplate(sealSpec(sealType, text, SEAL_TYPE_SIZE_MM[sealType], lines));
    return { kind, sealType, text, name: sealDisplayName(kind, text), template, securityLines: lines };
  }

  return {
    /** active/refreshMoulagePreView: the seal redrawn now, beside its current look; nothing is stored. */
    async refreshPreview(
      db: Db,
      ctx: AuthContext,
      input: { sealCode: string; securityLines?: boolean | undefined },
    ) {
      const a = await access(db, ctx, 'seal.manage');
      const s = await ownSeal(db, a, input.sealCode);
      const r = await redraw(db, s, input.securityLines);
      const png = await renderSeal(r.template);
      return {
        sealCode: s.seal_code,
        sealKind: r.kind,
        sealType: r.sealType,
        current: {
          name: s.name,
          title: s.title,
          imageUrl: s.image_file_key
            ? files.urlThrough({ kind: 'person', ctx }, s.image_file_key, { via: 'seal', id: s.seal_code })
                .url
            : null,
        },
        preview: {
          name: r.name,
          title: r.text.title,
          template: r.template,
          image: dataUrl(png),
          imageBytes: png.length,
        },
        nameChanged: r.name !== s.name,
        pictureChanged: sha256(png) !== s.image_sha256,
        pendingChangeNo: await repo.pendingChangeOf(db, s.seal_code),
      };
    },

    /**
     * pushRefreshMoulage: the refreshed look submitted as a change of each seal (ordinary for an
     * organisation's, personal for a name seal), which the operator reviews as any change. Named seals
     * must all be the space's (else nothing is done); each is then submitted or skipped with the reason.
     * Without names, every normal seal whose name no longer matches its holder's is pushed.
     */
    async pushRefresh(
      db: Db,
      ctx: AuthContext,
      input: { sealCodes?: string[] | undefined; reason: string },
      client: { ip: string | null },
    ) {
      const a = await access(db, ctx, 'seal.manage');
      const named = input.sealCodes ? [...new Set(input.sealCodes)] : null;
      const targets: repo.SealView[] = [];
      if (named) for (const code of named) targets.push(await ownSeal(db, a, code));
      else targets.push(...(await repo.redrawableSeals(db, a.scope)));
      const list: Array<{
        sealCode: string;
        sealName: string;
        outcome: 'submitted' | 'skipped';
        changeNo: string | null;
        reason: string | null;
      }> = [];
      for (const s of targets) {
        const skip = (reason: string) =>
          list.push({ sealCode: s.seal_code, sealName: s.name, outcome: 'skipped', changeNo: null, reason });
        try {
          const r = await redraw(db, s);
          if (r.name === s.name) {
            if (!named) continue;
            if (sha256(await renderSeal(r.template)) === s.image_sha256) {
              skip('sealChange.nothingChanged');
              continue;
            }
          }
          const change = await deps.submit(
            db,
            ctx,
            r.kind === 'personalName' ? 'personal' : 'ordinary',
            {
              sealCode: s.seal_code,
              sealType: r.sealType,
              title: s.title ?? undefined,
              title0: s.title0 ?? undefined,
              securityLines: r.securityLines,
              reason: input.reason,
            },
            client,
          );
          list.push({
            sealCode: s.seal_code,
            sealName: s.name,
            outcome: 'submitted',
            changeNo: change.changeNo,
            reason: null,
          });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          skip(err.key);
        }
      }
      const submitted = list.filter((x) => x.outcome === 'submitted');
      if (submitted.length > 0)
        await recordAudit(db, {
          actorPersonId: a.personId,
          organizationId: a.organizationId,
          action: 'sealChange.pushRefresh',
          targetType: 'sealChange',
          ip: client.ip,
          detail: {
            submitted: submitted.map((x) => ({ sealCode: x.sealCode, changeNo: x.changeNo })),
            skipped: list
              .filter((x) => x.outcome === 'skipped')
              .map((x) => ({ sealCode: x.sealCode, reason: x.reason })),
          },
        });
      return { submitted: submitted.length, list };
    },

    /**
     * getTempHandPaintedPic: an uploaded hand-drawn picture fitted to the seal's size (the hand-drawn seal
     * being changed, or the size a new one gets), as the change or the application will store it.
     */
    async tempHandPaintedPic(
      db: Db,
      ctx: AuthContext,
      input: { handDrawnFileKey: string; sealCode?: string | undefined },
    ) {
      let seal: repo.SealView | null = null;
      let size: { widthMm: number; heightMm: number };
      if (input.sealCode) {
        const a = await access(db, ctx, 'seal.manage');
        seal = await ownSeal(db, a, input.sealCode);
        if (seal.seal_kind !== 'personalHandDrawn') throw new AppError('sealChange.kindMismatch');
        size = { widthMm: seal.width_mm, heightMm: seal.height_mm };
      } else {
        const a = await access(db, ctx, 'seal.apply');
        const subject = a.organizationId ? 'organization' : 'person';
        const { sealType } = await resolveKind(subject, 'personalHandDrawn', undefined, {});
        size = SEAL_TYPE_SIZE_MM[sealType];
      }
      const fitted = await handDrawn.preview(db, ctx, input.handDrawnFileKey, size);
      const hash = sha256(fitted.png);
      return {
        sealCode: seal?.seal_code ?? null,
        widthMm: size.widthMm,
        heightMm: size.heightMm,
        widthPx: fitted.widthPx,
        heightPx: fitted.heightPx,
        image: dataUrl(fitted.png),
        imageBytes: fitted.png.length,
        sha256: hash,
        sameAsCurrent: !!seal && seal.image_sha256 === hash,
      };
    },
  };
}
