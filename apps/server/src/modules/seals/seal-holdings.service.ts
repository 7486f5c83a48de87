/**
 * What a space holds and may use: whether it has a usable seal and how many of each kind (valid/seal, for
 * the pages that offer "apply for a seal"), the seals the caller may sign with now (usable/info: their
 * own, or the organisation's when they manage its seals, else those authorised to them with the uses and
 * validity left), and the organisation's custom seals page by page (getCustomSealListV2).
 */
import { contracts, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { hasOrgPermission } from '../../lib/permissions';
import type { AuthContext } from '../session/session.service';
import { usable as grantUsable } from './seal-authorizations.service';
import { access, iso, pageArgs } from './seal-context';
import { CLOSED_SEAL, SINGLE_KINDS, type SealCore, type SealsDeps } from './seal-core';
import { sealOut } from './seal-views';
import * as repo from './seals.repository';

type SealKind = contracts.SealKind;
type SealStatus = contracts.SealStatus;
type DrawType = contracts.SealDrawType;
const { SEAL_KIND_INFO, SEAL_KINDS } = contracts;

/** The custom kinds (department, industry, practice): whatever the configuration offers today. */
const CUSTOM_KINDS: readonly SealKind[] = SEAL_KINDS.filter((k) => SEAL_KIND_INFO[k].custom);

const kindName = (kind: SealKind, lang: Language) =>
  lang === 'en' ? SEAL_KIND_INFO[kind].en : SEAL_KIND_INFO[kind].zh;

export function createSealHoldings(deps: SealsDeps, core: SealCore) {
  const { files } = deps;
  const { kindOptions } = core;

  /** In an organisation only with the point; a person acts for themselves. */
  const holds = async (db: Db, ctx: AuthContext, point: contracts.PermissionPoint) =>
    !ctx.organizationId || (await hasOrgPermission(db, ctx, point));

  return {
    /** valid/seal: whether the space holds a usable seal, by kind, and what may still be applied for. */
    async validSeal(db: Db, ctx: AuthContext, lang: Language) {
      const a = await access(db, ctx, 'seal.view');
      const subject = a.organizationId ? ('organization' as const) : ('person' as const);
      const now = new Date();
      const [seals, open, offered, mayApply] = await Promise.all([
        repo.sealTally(db, a.scope),
        repo.openWorkOrderKinds(db, a.scope),
        kindOptions(subject, lang),
        holds(db, ctx, 'seal.apply'),
      ]);
      const tally = new Map<SealKind, { usable: number; held: number; open: number }>();
      const of = (k: SealKind) => {
        let t = tally.get(k);
        if (!t) tally.set(k, (t = { usable: 0, held: 0, open: 0 }));
        return t;
      };
      for (const s of seals) {
        const kind = s.seal_kind as SealKind;
        if (!SEAL_KIND_INFO[kind]) continue;
        const t = of(kind);
        if (!CLOSED_SEAL.has(s.status)) t.held++;
        if (
          contracts.effectiveSealStatus(s.status as SealStatus, s.valid_to, now) === 'normal' &&
          s.cert_status === 'good'
        )
          t.usable++;
      }
      for (const k of open) if (SEAL_KIND_INFO[k as SealKind]) of(k as SealKind).open++;
      const offeredKinds = offered.list.map((o) => o.kind);
      const kinds = [...new Set([...offeredKinds, ...tally.keys()])].map((kind) => {
        const t = tally.get(kind) ?? { usable: 0, held: 0, open: 0 };
        const isOffered = offeredKinds.includes(kind);
        return {
          sealKind: kind,
          sealKindName: kindName(kind, lang),
          offered: isOffered,
          usable: t.usable,
          held: t.held,
          openApplications: t.open,
          // The same rule the application itself applies (seal-core hasLiveSealOrApplication).
          canApply: isOffered && mayApply && !(SINGLE_KINDS.has(kind) && (t.held > 0 || t.open > 0)),
        };
      });
      const usableCount = kinds.reduce((n, k) => n + k.usable, 0);
      return {
        subject,
        hasValidSeal: usableCount > 0,
        usable: usableCount,
        held: kinds.reduce((n, k) => n + k.held, 0),
        openApplications: open.length,
        mayApply,
        kinds,
      };
    },

    /**
     * usable/info: the seals the caller may sign with now. A person signs with their own; in an
     * organisation whoever manages its seals uses them directly (as signing does), anyone else uses those
     * authorised to them, in effect, in validity, with uses left, and limited to an app range only through
     * one of its apps. Use by approval is the signing task's business (its options call), not listed here.
     */
    async usableInfo(
      db: Db,
      ctx: AuthContext,
      q: { sealKind?: SealKind | undefined; carrier?: string | undefined; appId?: string | undefined },
      lang: Language,
    ) {
      const a = await access(db, ctx, 'seal.view');
      const now = new Date();
      const filters = { scope: a.scope, now, sealKind: q.sealKind, carrier: q.carrier };
      const base = (s: repo.SealView) => ({
        sealCode: s.seal_code,
        name: s.name,
        sealKind: s.seal_kind as SealKind,
        sealKindName: kindName(s.seal_kind as SealKind, lang),
        sealType: s.seal_type as DrawType,
        carrier: s.carrier,
        widthMm: s.width_mm,
        heightMm: s.height_mm,
        imageUrl: s.image_file_key
          ? files.urlThrough({ kind: 'person', ctx }, s.image_file_key, { via: 'seal', id: s.seal_code }).url
          : null,
        validTo: iso(s.valid_to),
      });
      const good = (s: repo.SealView) =>
        s.cert_status === 'good' && !!SEAL_KIND_INFO[s.seal_kind as SealKind];
      if (!a.organizationId || (await holds(db, ctx, 'seal.manage'))) {
        const list = (await repo.signingSeals(db, filters)).filter(good).map((s) => ({
          ...base(s),
          access: 'direct' as const,
          authCodes: [],
          usesRemaining: null,
          authValidTo: null,
        }));
        return { total: list.length, list };
      }
      if (!a.memberId) return { total: 0, list: [] };
      const grants = (await repo.grantsToMember(db, a.organizationId, a.memberId)).filter(
        (g) =>
          grantUsable(g, now) && (g.app_range.length === 0 || (!!q.appId && g.app_range.includes(q.appId))),
      );
      const bySeal = new Map<string, repo.AuthRow[]>();
      for (const g of grants) bySeal.set(g.seal_code, [...(bySeal.get(g.seal_code) ?? []), g]);
      const seals = await repo.signingSeals(db, { ...filters, sealCodes: [...bySeal.keys()] });
      const list = seals.filter(good).map((s) => {
        const gs = bySeal.get(s.seal_code)!;
        const unlimited = gs.some((g) => g.uses_remaining === null);
        const permanent = gs.some((g) => g.valid_to === null);
        const lastEnd = gs.reduce((t, g) => Math.max(t, g.valid_to?.getTime() ?? 0), 0);
        return {
          ...base(s),
          access: 'authorised' as const,
          authCodes: gs.map((g) => g.auth_code),
          usesRemaining: unlimited ? null : gs.reduce((n, g) => n + (g.uses_remaining ?? 0), 0),
          authValidTo: permanent ? null : new Date(lastEnd).toISOString(),
        };
      });
      return { total: list.length, list };
    },

    /**
     * getCustomSealListV2: the custom kinds on offer (as getCustomSealList) and the space's seals of the
     * custom kinds, filtered by kind, status, carrier, name and applicant, page by page with the total.
     */
    async customSealListV2(
      db: Db,
      ctx: AuthContext,
      q: {
        sealKind?: SealKind | undefined;
        status?: SealStatus | undefined;
        carrier?: string | undefined;
        keyword?: string | undefined;
        holder?: string | undefined;
        pageNum: number;
        pageSize: number;
      },
      lang: Language,
    ) {
      const a = await access(db, ctx, 'seal.view');
      const { list: options, titleMaxLength } = await kindOptions(
        a.organizationId ? 'organization' : 'person',
        lang,
      );
      const kinds = options.filter((o) => o.custom);
      const page = pageArgs(q);
      const sealKinds = q.sealKind ? CUSTOM_KINDS.filter((k) => k === q.sealKind) : CUSTOM_KINDS;
      if (sealKinds.length === 0) return { kinds, titleMaxLength, total: 0, ...page, list: [] };
      const now = new Date();
      const { rows, total } = await repo.listSeals(db, {
        ...page,
        scope: a.scope,
        now,
        ...(q.status === 'expired' ? { expired: true } : q.status ? { statuses: [q.status] } : {}),
        sealKinds,
        carrier: q.carrier,
        keyword: q.keyword || undefined,
        holder: q.holder || undefined,
      });
      return {
        kinds,
        titleMaxLength,
        total,
        ...page,
        list: rows.map((s) => sealOut(files, ctx, s, lang, now)),
      };
    },
  };
}
