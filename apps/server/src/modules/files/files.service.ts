import { AppError, LIMITS } from '@openseal/core';
import { hasOrgPermission } from '../../lib/permissions';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hmac, openSecret, safeEqual, sealSecret } from '../../lib/secrets';
import type { AuthContext } from '../session/session.service';
import type { WorkPool } from '../../workers/work-pool';
import type { UploadKind } from './file-check';
import type { BlobStore } from './file-store';
import * as repo from './files.repository';

export type UploadPurpose = 'sign' | 'verify' | 'material' | 'image' | 'appIcon' | 'sealImage';

interface PurposeRule {
  kinds: readonly UploadKind[];
  maxBytes: number;
  exactPx?: number;
  /** Pixels an image may declare (default LIMITS.imageMaxPixels). */
  maxPixels?: number;
}

const MB = 1024 * 1024;

/** Who a download address is issued to: a person in one space, or a platform operator. */
export type FileHolder = { kind: 'person'; ctx: AuthContext } | { kind: 'operator'; operatorId: string };

/** The object through which a holder reads a file: a rule's name and the object's id. */
export interface FileGrant {
  via: string;
  id: string;
}

export type FileRow = NonNullable<Awaited<ReturnType<typeof repo.findFileObject>>>;

/**
 * How a module that owns files decides who reads them through its objects (a flow's participants, a
 * seal's managers…). Asked when an address is issued for a bare fileKey, and again whenever the address
 * is used, so an address stops working as soon as its holder loses access.
 */
export interface FileAccessRule {
  /** Whether the holder may read the file through the object `id` now. */
  allows(db: Db, holder: FileHolder, id: string, file: FileRow): Promise<boolean>;
  /** For the fileKey-only call: an object of this module through which the holder may read the file. */
  find?(db: Db, holder: FileHolder, file: FileRow): Promise<string | null>;
}

export interface FilesDeps {
  store: BlobStore;
  secret: string;
  fileSizeLimitMb: number;
  /** How long an address lives (DOWNLOAD_URL_TTL_SECONDS). */
  urlTtlSeconds: number;
  /** The holder's context now (active person, active member of a live organisation), or null. */
  contextOf(db: Db, personId: string, organizationId: string | null): Promise<AuthContext | null>;
  /** The worker pool: OFD structure and the PDF checks of a file to sign run off the main thread. */
  work: Pick<WorkPool, 'readOfd' | 'readPdfPages'>;
}

/** The holder as an address names it: `p.<person>[.<organisation>]` or `o.<operator>`. */
function holderText(h: FileHolder): string {
  if (h.kind === 'operator') return `o.${h.operatorId}`;
  return h.ctx.organizationId ? `p.${h.ctx.personId}.${h.ctx.organizationId}` : `p.${h.ctx.personId}`;
}

const ID = /^[0-9A-Za-z_-]{1,64}$/;

/** The purpose a PDF's password is sealed under (lib/secrets `sealSecret`). */
const PDF_PASSWORD = 'pdf-password';

export function createFilesService(deps: FilesDeps) {
  /** Spec section 5 upload rules, by purpose. */
  const RULES: Record<UploadPurpose, PurposeRule> = {
    sign: { kinds: ['pdf', 'ofd'], maxBytes: deps.fileSizeLimitMb * MB },
    verify: { kinds: ['pdf'], maxBytes: LIMITS.verifyUploadMaxBytes },
    material: { kinds: ['doc', 'docx', 'pdf', 'jpg', 'png'], maxBytes: LIMITS.imageMaxBytes },
    image: { kinds: ['jpg', 'png'], maxBytes: LIMITS.imageMaxBytes },
    appIcon: { kinds: ['jpg', 'png'], maxBytes: LIMITS.appIconMaxBytes, exactPx: LIMITS.appIconPx },
    // Seal images are the platform's own (≤ 42 mm at 400 dpi) or hand-drawn: far below the general budget.
    sealImage: { kinds: ['png'], maxBytes: LIMITS.sealImageMaxBytes, maxPixels: LIMITS.handDrawnMaxPixels },
  };
  const rules = new Map<string, FileAccessRule>();
  const signature = (key: string, by: string, grant: FileGrant, expires: number) =>
    hmac(deps.secret, 'file', key, by, grant.via, grant.id, String(expires));

  /** Own uploads: the person who uploaded the file, in the space they uploaded it in. */
  const ownRule: FileAccessRule = {
    allows: async (_db, h, _id, f) =>
      h.kind === 'person' && f.owner_person_id === h.ctx.personId && f.owner_org_id === h.ctx.organizationId,
  };
  /**
   * Materials (licences, authorisation letters, authority applications) carry identity data: inside the
   * organisation only its administrators and reviewers read another member's.
   */
  const materialRule: FileAccessRule = {
    allows: async (db, h, _id, f) =>
      h.kind === 'person' &&
      f.purpose === 'material' &&
      f.owner_org_id !== null &&
      f.owner_org_id === h.ctx.organizationId &&
      ((await hasOrgPermission(db, h.ctx, 'member.manage')) ||
        (await hasOrgPermission(db, h.ctx, 'authority.review'))),
  };
  rules.set('own', ownRule);
  rules.set('material', materialRule);

  function address(holder: FileHolder, fileKey: string, grant: FileGrant) {
    if (!rules.has(grant.via)) throw new Error(`no file access rule "${grant.via}"`);
    const by = holderText(holder);
    const expires = Math.floor(Date.now() / 1000) + deps.urlTtlSeconds;
    const q = new URLSearchParams({
      by,
      via: grant.via,
      id: grant.id,
      expires: String(expires),
      sig: signature(fileKey, by, grant, expires),
    });
    return {
      url: `/v1/file/download/${encodeURIComponent(fileKey)}?${q.toString()}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** The holder an address names, as they stand now; null when they are gone (removed, disabled). */
  async function holderNow(db: Db, by: string): Promise<FileHolder | null> {
    const [kind, first, second, ...rest] = by.split('.');
    if (rest.length || !first || !ID.test(first) || (second !== undefined && !ID.test(second))) return null;
    if (kind === 'o' && second === undefined) return { kind: 'operator', operatorId: first };
    if (kind !== 'p') return null;
    const ctx = await deps.contextOf(db, first, second ?? null);
    return ctx && { kind: 'person', ctx };
  }

  async function store(
    db: Db,
    input: {
      bytes: Buffer;
      fileName: string;
      purpose: UploadPurpose;
      ownerPersonId: string | null;
      ownerOrgId: string | null;
      /** The password of an encrypted PDF to sign (kept sealed when the file needs it). */
      password?: string;
    },
  ) {
    const rule = RULES[input.purpose];
    if (input.bytes.length > rule.maxBytes)
      throw new AppError('file.tooLarge', { details: { maxBytes: rule.maxBytes } });
    // The content sniffers load with the first upload: a command that only reads stored files skips them.
    const { checkUpload } = await import('./file-check');
    const checked = await checkUpload(input.bytes, rule.kinds, {
      work: deps.work,
      maxPixels: rule.maxPixels ?? LIMITS.imageMaxPixels,
    });
    // A PDF to sign whose encryption stops the platform (a user password, permissions that forbid
    // filling in forms, a handler it cannot write) is refused before it is stored.
    const opened =
      input.purpose === 'sign' && checked.kind === 'pdf'
        ? await deps.work.readPdfPages(input.bytes, input.password)
        : null;
    if (rule.exactPx && (checked.width !== rule.exactPx || checked.height !== rule.exactPx)) {
      throw new AppError('file.imageSize', {
        details: {
          expected: `${rule.exactPx}x${rule.exactPx}`,
          actual: `${checked.width}x${checked.height}`,
        },
      });
    }
    const sha256 = await deps.store.put(input.bytes);
    const key = newId('fil');
    const fileName = sanitizeName(input.fileName, checked.kind);
    await db.transaction().execute(async (trx) => {
      await repo.insertBlobRow(trx, { sha256, size: input.bytes.length, contentType: checked.contentType });
      await repo.insertFileObject(trx, {
        key,
        sha256,
        name: fileName,
        purpose: input.purpose,
        ownerPersonId: input.ownerPersonId,
        ownerOrgId: input.ownerOrgId,
        passwordSealed:
          opened?.locked && input.password
            ? sealSecret(deps.secret, PDF_PASSWORD, key, input.password)
            : null,
      });
    });
    return { fileKey: key, fileName, size: input.bytes.length, contentType: checked.contentType, sha256 };
  }

  return {
    rules: RULES,
    maxBytes: (purpose: UploadPurpose) => RULES[purpose].maxBytes,

    upload: (
      db: Db,
      ctx: AuthContext,
      input: { bytes: Buffer; fileName: string; purpose: UploadPurpose; password?: string },
    ) => store(db, { ...input, ownerPersonId: ctx.personId, ownerOrgId: ctx.organizationId }),

    /** The password a signing upload was given, opened (null when it needed none). */
    passwordOf(file: { key: string; password_sealed: Uint8Array | null }): string | null {
      return file.password_sealed
        ? openSecret(deps.secret, PDF_PASSWORD, file.key, file.password_sealed)
        : null;
    },

    /** Files the platform itself owns (logos, banners); readable by anyone through config. */
    storeSystemFile: (db: Db, input: { bytes: Buffer; fileName: string; purpose: UploadPurpose }) =>
      store(db, { ...input, ownerPersonId: null, ownerOrgId: null }),

    /** A module that owns files says who reads them through its objects (see FileAccessRule). */
    registerAccess(via: string, rule: FileAccessRule) {
      if (rules.has(via)) throw new Error(`file access rule "${via}" registered twice`);
      rules.set(via, rule);
    },

    /**
     * A short-lived download address for a bare fileKey (POST /v1/file/url): issued through the first
     * object that lets the caller read the file (their own upload, their organisation's material for its
     * administrators, a flow they take part in, a seal they manage…), or refused with 5201.
     */
    async urlFor(db: Db, ctx: AuthContext, fileKey: string) {
      const file = await repo.findFileObject(db, fileKey);
      if (!file) throw new AppError('file.accessDenied');
      const holder: FileHolder = { kind: 'person', ctx };
      for (const [via, rule] of rules) {
        const id = rule.find
          ? await rule.find(db, holder, file)
          : (await rule.allows(db, holder, '', file))
            ? ''
            : null;
        if (id !== null) return address(holder, fileKey, { via, id });
      }
      throw new AppError('file.accessDenied');
    },

    /**
     * A short-lived address through an object the calling module has checked the holder may see (a seal
     * image in the seal list, say). The address names the holder and the object, and the module's rule
     * judges it again when it is used.
     */
    urlThrough: (holder: FileHolder, fileKey: string, grant: FileGrant) => address(holder, fileKey, grant),

    /** Like urlThrough, with the object's rule asked first (5201 when it refuses); answers the file too. */
    async urlChecked(db: Db, holder: FileHolder, fileKey: string, grant: FileGrant) {
      const file = await repo.findFileObject(db, fileKey);
      const rule = rules.get(grant.via);
      if (!file || !rule || !(await rule.allows(db, holder, grant.id, file)))
        throw new AppError('file.accessDenied');
      return { ...address(holder, fileKey, grant), file };
    },

    /** Throws 5201 unless the caller uploaded the file in this space (what they attach to an application). */
    async requireOwn(db: Db, ctx: AuthContext, fileKey: string): Promise<FileRow> {
      const file = await repo.findFileObject(db, fileKey);
      if (!file || !(await ownRule.allows(db, { kind: 'person', ctx }, '', file)))
        throw new AppError('file.accessDenied');
      return file;
    },

    /** A stored file's bytes and metadata, for modules that checked access themselves. */
    async readInternal(db: Db, fileKey: string) {
      const file = await repo.findFileObject(db, fileKey);
      const bytes = file ? await deps.store.get(file.sha256) : null;
      if (!file || !bytes) return null;
      return { bytes, sha256: file.sha256, name: file.name, purpose: file.purpose, file };
    },

    /** A stored blob as a file on this machine (read by the signer in a worker). */
    blobPath: (sha256: string) => deps.store.localPath(sha256),

    /**
     * A new blob to write into (a signed version of a file), kept under the SHA-256 its writer computed
     * (see BlobDraft). Its row in `files` is written by the act that makes the version current, in its
     * transaction.
     */
    draftBlob: () => deps.store.draft(),

    getBlob: (sha256: string) => deps.store.get(sha256),

    /**
     * Serves an address: its signature first (5007 for a forged or altered one), then its lifetime
     * (5203), then the holder and the object it names, judged now (5202 when the holder has left the
     * organisation or lost access to the object since).
     */
    async download(
      db: Db,
      fileKey: string,
      q: {
        by?: string | undefined;
        via?: string | undefined;
        id?: string | undefined;
        expires: number;
        sig: string;
      },
    ) {
      const by = q.by ?? '';
      const grant = { via: q.via ?? '', id: q.id ?? '' };
      if (!safeEqual(q.sig, signature(fileKey, by, grant, q.expires))) throw new AppError('file.notFound');
      if (q.expires < Date.now() / 1000) throw new AppError('file.linkExpired');
      const file = await repo.findFileObject(db, fileKey);
      const rule = rules.get(grant.via);
      if (!file || !rule) throw new AppError('file.notFound');
      const holder = await holderNow(db, by);
      if (!holder || !(await rule.allows(db, holder, grant.id, file))) throw new AppError('file.linkRevoked');
      const bytes = await deps.store.get(file.sha256);
      if (!bytes) throw new AppError('file.notFound');
      return {
        bytes,
        contentType: file.content_type,
        name: file.name,
        maxAgeSeconds: Math.max(0, Math.floor(q.expires - Date.now() / 1000)),
      };
    },

    async readDataUrl(db: Db, fileKey: string): Promise<string | null> {
      const file = await repo.findFileObject(db, fileKey);
      if (!file || file.owner_person_id !== null || file.owner_org_id !== null) return null;
      const bytes = await deps.store.get(file.sha256);
      return bytes ? `data:${file.content_type};base64,${bytes.toString('base64')}` : null;
    },
  };
}

/** Keeps a display name safe to echo in headers and pages, with an extension that matches the content. */
function sanitizeName(name: string, kind: UploadKind): string {
  const base = [...(name.split(/[\\/]/).pop() ?? '')]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f && !'"<>|*?:'.includes(ch))
    .join('')
    .trim()
    .slice(0, 120);
  const ext = kind === 'jpg' ? /\.(jpe?g)$/i : new RegExp(`\\.${kind}$`, 'i');
  const stem = base.replace(/\.[^.]*$/, '') || 'file';
  return ext.test(base) ? base : `${stem}.${kind}`;
}

export type FilesService = ReturnType<typeof createFilesService>;
