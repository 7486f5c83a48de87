/**
 * UKey bindings: a hardware key whose certificate the platform issued to the organisation, bound after it
 * proved it holds the private key. Only keys bound here can be edited or unbound (spec section 6); one
 * organisation never sees another's keys. Every change writes the audit log in its own transaction.
 */
import { AppError, contracts, type Language } from '@openseal/core';
import { isUniqueViolation, type Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { requireOrg, requireOrgPermission, requireRealName, type OrgContext } from '../../lib/permissions';
import { inTransaction } from '../../lib/tx';
import { recordAudit } from '../audit/audit.repository';
import type { OrganizesService } from '../organizes/organizes.service';
import type { PkiService } from '../pki/pki.service';
import type { AuthContext } from '../session/session.service';
import type { SealDirectory } from './seal-directory';
import { challengeText, fromDer, readCertificate, verifyProof, type ReadCertificate } from './ukey-proof';
import * as repo from './ukeys.repository';
import { hasApproval, takeApproval } from './ukey-permissions.repository';

type UkeyKind = contracts.UkeyKind;

const bytesEqual = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
type CertStatus = 'good' | 'hold' | 'revoked' | 'expired' | 'notYetValid' | 'unknown';

export interface UkeysDeps {
  pki: PkiService;
  organizes: OrganizesService;
  /** Read at each call, so the seals service can be wired after the routes are registered. */
  seals: () => SealDirectory;
  now?: () => Date;
}

export function createUkeysService(deps: UkeysDeps) {
  const now = deps.now ?? (() => new Date());

  async function org(db: Db, ctx: AuthContext, point: contracts.PermissionPoint): Promise<OrgContext> {
    const o = await requireOrgPermission(db, ctx, point);
    requireRealName(ctx);
    return o;
  }

  /**
   * seal.manage for an operation on one key, or, lacking it, an approved UKey permission request of the
   * caller's for this operation on this key while the request names the key in the permission-key header
   * (ukey-permissions.service). Answers the approval to take in the operation's transaction (null: the role).
   */
  async function manageKey(
    db: Db,
    ctx: AuthContext,
    operation: contracts.UkeyAgentOperation,
    ukeySn: string,
    keySerial: string | null,
  ): Promise<{ o: OrgContext; viaApproval: boolean }> {
    try {
      return { o: await org(db, ctx, contracts.OPERATION_POINTS[operation]), viaApproval: false };
    } catch (e) {
      if (!(e instanceof AppError) || e.key !== 'perm.sealManage' || keySerial !== ukeySn) throw e;
      const o = requireOrg(ctx);
      requireRealName(ctx);
      const held = await hasApproval(db, {
        organizationId: o.organizationId,
        memberId: o.memberId,
        ukeySn,
        operation,
        now: now(),
      });
      if (!held) throw e;
      return { o, viaApproval: true };
    }
  }

  /** Takes the approval an agent acts under, in the operation's transaction (refused if another took it). */
  async function takeAgentApproval(
    trx: Db,
    o: OrgContext,
    operation: contracts.UkeyAgentOperation,
    ukeySn: string,
  ): Promise<string> {
    const taken = await takeApproval(trx, {
      organizationId: o.organizationId,
      memberId: o.memberId,
      ukeySn,
      operation,
      now: now(),
    });
    if (!taken) throw new AppError('perm.sealManage');
    return taken;
  }

  async function organisation(db: Db, organizationId: string) {
    const o = await deps.organizes.findLive(db, organizationId);
    if (!o) throw new AppError('org.notFound');
    return o;
  }

  /** The platform's own view of a certificate: its row, and whether it is usable now. */
  /** The platform's row for a certificate serial, or undefined when it issued none with it. */
  async function platformRow(db: Db, serialHex: string) {
    try {
      return await deps.pki.certificate(db, serialHex);
    } catch (e) {
      if (e instanceof AppError && e.key === 'cert.notFound') return undefined;
      throw e;
    }
  }

  /** The platform's own view of a certificate: whether it issued exactly these bytes, and whether it is usable now. */
  async function certStatus(db: Db, cert: ReadCertificate): Promise<{ status: CertStatus; issued: boolean }> {
    const row = await platformRow(db, cert.summary.serialHex);
    const issued = !!row && bytesEqual(row.der, cert.der);
    const t = now();
    if (!issued) return { status: 'unknown', issued };
    if (row.status !== 'good') return { status: row.status, issued };
    if (t < row.not_before) return { status: 'notYetValid', issued };
    if (t > row.not_after) return { status: 'expired', issued };
    return { status: 'good', issued };
  }

  /**
   * A certificate the platform issued to this organisation for a key held on a UKey, and good now: the
   * holder check compares the certificate's owner and USCC with the logged-in organisation (names change,
   * credit codes do not).
   */
  async function checkUkeyCertificate(db: Db, organizationId: string, cert: ReadCertificate): Promise<void> {
    const row = await platformRow(db, cert.summary.serialHex);
    if (!row || !bytesEqual(row.der, cert.der) || row.key_id !== null || row.profile !== 'org-seal')
      throw new AppError('ukey.certNotIssued');
    const o = await organisation(db, organizationId);
    if (
      row.owner_type !== 'organization' ||
      row.owner_id !== organizationId ||
      cert.summary.organizationIdentifier !== o.uscc
    )
      throw new AppError('ukey.holderMismatch', {
        details: {
          organization: cert.summary.organization ?? null,
          uscc: cert.summary.organizationIdentifier ?? null,
        },
      });
    const { status } = await certStatus(db, cert);
    if (status !== 'good') throw new AppError('ukey.unavailable', { details: { certStatus: status } });
  }

  /** Spends a challenge of this caller for this key and checks the key's signature over it. */
  async function proveKey(
    trx: Db,
    ctx: OrgContext,
    ukeySn: string,
    proof: { challengeId: string; signature: string },
    publicKey: ReadCertificate['publicKey'],
  ): Promise<void> {
    const challenge = await repo.takeChallenge(trx, {
      id: proof.challengeId,
      organizationId: ctx.organizationId,
      personId: ctx.personId,
      ukeySn,
      now: now(),
    });
    if (challenge === undefined) throw new AppError('ukey.challengeInvalid');
    verifyProof(challenge, proof.signature, publicKey);
  }

  /** Seal codes checked against the seals module: the organisation's own, usable, no more than a key carries. */
  async function checkSeals(
    db: Db,
    organizationId: string,
    kind: UkeyKind,
    codes: string[],
  ): Promise<string[]> {
    const unique = [...new Set(codes.map((c) => c.trim()))];
    if (kind === 'online') {
      if (unique.length) throw new AppError('ukey.kindNoSeals');
      return [];
    }
    if (unique.length > contracts.UKEY_LIMITS.maxSealsPerKey)
      throw new AppError('ukey.tooManySeals', { params: { max: contracts.UKEY_LIMITS.maxSealsPerKey } });
    for (const code of unique) {
      const seal = await deps.seals().findSeal(db, organizationId, code);
      if (!seal?.usable) throw new AppError('ukey.sealUnavailable', { details: { sealCode: code } });
    }
    return unique;
  }

  function checkName(raw: string): string {
    const c = contracts.checkUkeyName(raw);
    if (!c.ok) throw new AppError(c.key);
    return c.value;
  }

  async function out(db: Db, b: repo.BindingRow, sealCodes?: string[]) {
    const cert = fromDer(b.certificate);
    const { status } = await certStatus(db, cert);
    return {
      ukeySn: b.ukey_sn,
      ukeyName: b.name,
      kind: b.kind,
      status: b.status,
      certSerial: b.cert_serial,
      issuer: cert.summary.issuer,
      holder: cert.summary.organization ?? null,
      notBefore: cert.summary.notBefore.toISOString(),
      notAfter: cert.summary.notAfter.toISOString(),
      certStatus: status,
      bindTime: b.bound_at.toISOString(),
      binderPersonId: b.bound_by_person_id,
      applyNo: b.apply_no,
      sealCodes: sealCodes ?? (await repo.sealsOfBindings(db, [b.id])).get(b.id) ?? [],
    };
  }

  async function liveBinding(db: Db, ctx: OrgContext, ukeySn: string): Promise<repo.BindingRow> {
    const b = await repo.findLiveBindingInOrg(db, ctx.organizationId, ukeySn);
    if (!b) throw new AppError('ukey.notBound');
    return b;
  }

  /**
   * Creates a binding inside the caller's transaction (also used when a UKey application is done): the
   * certificate must be the platform's, of this organisation, good, and the key proven present before.
   */
  async function insertBinding(
    trx: Db,
    ctx: OrgContext,
    b: {
      ukeySn: string;
      name: string;
      kind: UkeyKind;
      cert: ReadCertificate;
      sealCodes: string[];
      applyNo: string | null;
    },
    ip: string | null,
  ): Promise<repo.BindingRow> {
    if (await repo.findLiveBinding(trx, b.ukeySn)) throw new AppError('ukey.alreadyBound');
    const id = newId('ukb');
    try {
      await repo.insertBinding(trx, {
        id,
        organization_id: ctx.organizationId,
        ukey_sn: b.ukeySn,
        name: b.name,
        kind: b.kind,
        cert_serial: b.cert.summary.serialHex,
        certificate: b.cert.der,
        apply_no: b.applyNo,
        bound_by_person_id: ctx.personId,
      });
    } catch (e) {
      if (isUniqueViolation(e, 'ukey_bindings_live_sn')) throw new AppError('ukey.alreadyBound');
      throw e;
    }
    await repo.replaceBindingSeals(trx, id, b.sealCodes);
    await recordAudit(trx, {
      actorPersonId: ctx.personId,
      organizationId: ctx.organizationId,
      action: 'ukey.bind',
      targetType: 'ukey',
      targetId: b.ukeySn,
      ip,
      detail: {
        kind: b.kind,
        certSerial: b.cert.summary.serialHex,
        sealCodes: b.sealCodes,
        applyNo: b.applyNo,
      },
    });
    const row = await repo.findLiveBindingInOrg(trx, ctx.organizationId, b.ukeySn);
    return row!;
  }

  return {
    checkUkeyCertificate,
    proveKey,
    checkSeals,
    checkName,
    insertBinding,
    liveBinding,
    out,
    organisation,

    /** A one-time text for the key to sign (valid five minutes, for this caller and this key only). */
    async challenge(db: Db, ctx: AuthContext, ukeySn: string) {
      const o = await org(db, ctx, 'seal.view');
      const id = newId('uch');
      const challenge = challengeText({ challengeId: id, ukeySn, organizationId: o.organizationId });
      const expiresAt = new Date(now().getTime() + contracts.UKEY_LIMITS.challengeTtlSeconds * 1000);
      await repo.deleteExpiredChallenges(db, new Date(now().getTime() - 86_400_000));
      await repo.insertChallenge(db, {
        id,
        organization_id: o.organizationId,
        person_id: o.personId,
        ukey_sn: ukeySn,
        challenge,
        expires_at: expiresAt,
      });
      return { challengeId: id, challenge, expiresAt: expiresAt.toISOString() };
    },

    async bind(
      db: Db,
      ctx: AuthContext,
      input: {
        ukeySn: string;
        ukeyName: string;
        certificate: string;
        kind: UkeyKind;
        sealCodes?: string[] | undefined;
        challengeId: string;
        signature: string;
      },
      ip: string | null,
    ) {
      const o = await org(db, ctx, 'seal.manage');
      const name = checkName(input.ukeyName);
      const cert = readCertificate(input.certificate);
      return inTransaction(db, async (trx) => {
        await checkUkeyCertificate(trx, o.organizationId, cert);
        const sealCodes = await checkSeals(trx, o.organizationId, input.kind, input.sealCodes ?? []);
        await proveKey(trx, o, input.ukeySn, input, cert.publicKey);
        const row = await insertBinding(
          trx,
          o,
          { ukeySn: input.ukeySn, name, kind: input.kind, cert, sealCodes, applyNo: null },
          ip,
        );
        return out(trx, row, sealCodes);
      });
    },

    async cancelBinding(
      db: Db,
      ctx: AuthContext,
      ukeySn: string,
      ip: string | null,
      /** The permission-key header: the key an agent's approved request is for. */
      keySerial: string | null = null,
    ) {
      const { o, viaApproval } = await manageKey(db, ctx, 'unbind', ukeySn, keySerial);
      return inTransaction(db, async (trx) => {
        const b = await liveBinding(trx, o, ukeySn);
        const approval = viaApproval ? await takeAgentApproval(trx, o, 'unbind', ukeySn) : null;
        if (!(await repo.endBinding(trx, b.id, 'unbound', o.personId, now())))
          throw new AppError('ukey.notBound');
        await recordAudit(trx, {
          actorPersonId: o.personId,
          organizationId: o.organizationId,
          action: 'ukey.unbind',
          targetType: 'ukey',
          targetId: ukeySn,
          ip,
          detail: { certSerial: b.cert_serial, ...(approval ? { permissionRequest: approval } : {}) },
        });
        return { ukeySn, status: 'unbound' as const };
      });
    },

    /** The organisation's bound keys: the online tab lists authentication keys, the offline tab signing keys. */
    async list(
      db: Db,
      ctx: AuthContext,
      q: { tab: UkeyKind; keyword?: string | undefined; pageNum: number; pageSize: number },
    ) {
      const o = await org(db, ctx, 'seal.manage');
      const { total, rows } = await repo.listLiveBindings(db, {
        organizationId: o.organizationId,
        kind: q.tab,
        ...(q.keyword?.trim() ? { keyword: q.keyword.trim() } : {}),
        limit: q.pageSize,
        offset: (q.pageNum - 1) * q.pageSize,
      });
      const seals = await repo.sealsOfBindings(
        db,
        rows.map((r) => r.id),
      );
      return { total, list: await Promise.all(rows.map((r) => out(db, r, seals.get(r.id)))) };
    },

    /** Proof that a bound key is present: its signature over a challenge, checked with its certificate. */
    async verifySign(
      db: Db,
      ctx: AuthContext,
      input: { ukeySn: string; challengeId: string; signature: string },
      ip: string | null,
    ) {
      const o = await org(db, ctx, 'seal.view');
      return inTransaction(db, async (trx) => {
        const b = await liveBinding(trx, o, input.ukeySn);
        const cert = fromDer(b.certificate);
        const { status } = await certStatus(trx, cert);
        if (status !== 'good') throw new AppError('ukey.unavailable', { details: { certStatus: status } });
        await proveKey(trx, o, input.ukeySn, input, cert.publicKey);
        const sealCodes = (await repo.sealsOfBindings(trx, [b.id])).get(b.id) ?? [];
        await recordAudit(trx, {
          actorPersonId: o.personId,
          organizationId: o.organizationId,
          action: 'ukey.verify',
          targetType: 'ukey',
          targetId: input.ukeySn,
          ip,
          detail: { certSerial: b.cert_serial },
        });
        return {
          verified: true as const,
          ukeySn: b.ukey_sn,
          kind: b.kind,
          certSerial: b.cert_serial,
          sealCodes,
        };
      });
    },

    /** What a certificate says and what the platform knows of it, for a bound key or one read from a key. */
    async certProperties(
      db: Db,
      ctx: AuthContext,
      input: { ukeySn?: string | undefined; certificate?: string | undefined },
    ) {
      const o = await org(db, ctx, 'seal.view');
      const cert =
        input.ukeySn !== undefined
          ? fromDer((await liveBinding(db, o, input.ukeySn)).certificate)
          : readCertificate(input.certificate!);
      const { status, issued } = await certStatus(db, cert);
      const row = issued ? await platformRow(db, cert.summary.serialHex) : undefined;
      const organisationRow = await organisation(db, o.organizationId);
      return {
        serial: cert.summary.serialHex,
        subject: cert.summary.subject,
        issuer: cert.summary.issuer,
        organization: cert.summary.organization ?? null,
        uscc: cert.summary.organizationIdentifier ?? null,
        notBefore: cert.summary.notBefore.toISOString(),
        notAfter: cert.summary.notAfter.toISOString(),
        keyAlgorithm: cert.summary.keyAlgorithm,
        status,
        issuedByPlatform: issued,
        holderMatches:
          !!row &&
          row.owner_type === 'organization' &&
          row.owner_id === o.organizationId &&
          cert.summary.organizationIdentifier === organisationRow.uscc,
      };
    },

    /** Which seals a bound key carries (and its name); only keys bound here, in this organisation. */
    async updateBindingSeal(
      db: Db,
      ctx: AuthContext,
      input: { ukeySn: string; sealCodes: string[]; ukeyName?: string | undefined },
      ip: string | null,
      /** The permission-key header: the key an agent's approved request is for. */
      keySerial: string | null = null,
    ) {
      const { o, viaApproval } = await manageKey(db, ctx, 'updateSeals', input.ukeySn, keySerial);
      const name = input.ukeyName !== undefined ? checkName(input.ukeyName) : undefined;
      return inTransaction(db, async (trx) => {
        const b = await liveBinding(trx, o, input.ukeySn);
        const approval = viaApproval ? await takeAgentApproval(trx, o, 'updateSeals', input.ukeySn) : null;
        if (b.kind === 'offline' && input.sealCodes.length === 0) throw new AppError('ukey.sealsRequired');
        const sealCodes = await checkSeals(trx, o.organizationId, b.kind, input.sealCodes);
        await repo.replaceBindingSeals(trx, b.id, sealCodes);
        if (name !== undefined) await repo.updateBinding(trx, b.id, { name }, now());
        await recordAudit(trx, {
          actorPersonId: o.personId,
          organizationId: o.organizationId,
          action: 'ukey.updateSeals',
          targetType: 'ukey',
          targetId: input.ukeySn,
          ip,
          detail: {
            sealCodes,
            ...(name !== undefined ? { name } : {}),
            ...(approval ? { permissionRequest: approval } : {}),
          },
        });
        const row = await repo.findLiveBindingInOrg(trx, o.organizationId, input.ukeySn);
        return out(trx, row!, sealCodes);
      });
    },

    /** The organisation's live keys (serial and name), for confirming intent with one (seal.view). */
    async liveKeys(db: Db, ctx: AuthContext) {
      const o = await org(db, ctx, 'seal.view');
      const { rows } = await repo.listLiveBindings(db, {
        organizationId: o.organizationId,
        limit: 50,
        offset: 0,
      });
      return rows.map((b) => ({ ukeySn: b.ukey_sn, name: b.name }));
    },

    async bindSeals(db: Db, ctx: AuthContext, ukeySn: string) {
      const o = await org(db, ctx, 'seal.view');
      const b = await liveBinding(db, o, ukeySn);
      const codes = (await repo.sealsOfBindings(db, [b.id])).get(b.id) ?? [];
      const seals = [];
      for (const sealCode of codes) {
        const s = await deps.seals().findSeal(db, o.organizationId, sealCode);
        seals.push({ sealCode, name: s?.name ?? null, usable: s?.usable ?? false });
      }
      return { ukeySn, seals };
    },

    /** What the download button offers: the agent as it exists today (no packaged installer yet). */
    agentDownload(lang: Language) {
      const zh = lang !== 'en';
      return {
        name: '@openseal/ukey-agent',
        version: '0.1.0',
        packaged: false,
        defaultUrl: `http://127.0.0.1:${contracts.UKEY_AGENT_DEFAULT_PORT}`,
        requirements: zh
          ? [
              'Node.js 20 或更高版本',
              'UKey厂商的PKCS#11驱动（测试可用SoftHSM2）',
              'OpenSeal源代码（apps/ukey-agent）',
            ]
          : [
              'Node.js 20 or later',
              "the UKey vendor's PKCS#11 driver (SoftHSM2 for tests)",
              'the OpenSeal source (apps/ukey-agent)',
            ],
        steps: zh
          ? [
              '在仓库根目录执行 npm install',
              '用 UKEY_PKCS11_MODULE 指定厂商驱动路径，用 UKEY_AGENT_ORIGINS 填写本平台网址',
              '执行 npm run start -w @openseal/ukey-agent，组件服务只在 127.0.0.1 上监听',
              '详见 apps/ukey-agent/README.md',
            ]
          : [
              'run npm install at the repository root',
              "name the vendor's driver with UKEY_PKCS11_MODULE and this platform's address with UKEY_AGENT_ORIGINS",
              'run npm run start -w @openseal/ukey-agent; the component service listens on 127.0.0.1 only',
              'see apps/ukey-agent/README.md',
            ],
        api: [
          { method: 'GET', path: '/v1/keys', purpose: 'keys present' },
          { method: 'POST', path: '/v1/certificates/read', purpose: 'certificates on a key' },
          { method: 'POST', path: '/v1/pin/verify', purpose: 'verify the PIN' },
          { method: 'POST', path: '/v1/pin/reset', purpose: "seal maker's reset with the SO PIN" },
          { method: 'POST', path: '/v1/keypair/generate', purpose: 'generate a key pair on the key' },
          {
            method: 'POST',
            path: '/v1/certificates/write',
            purpose: 'write the certificate and seal images',
          },
          { method: 'POST', path: '/v1/sign', purpose: 'sign a SHA-256 digest' },
        ],
      };
    },
  };
}

export type UkeysService = ReturnType<typeof createUkeysService>;
