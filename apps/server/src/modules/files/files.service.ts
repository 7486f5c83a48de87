import { AppError, LIMITS } from '@openseal/core';
import { hasOrgPermission } from '../../lib/permissions';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hmac, safeEqual } from '../../lib/secrets';
import type { AuthContext } from '../session/session.service';
import type { WorkPool } from '../../workers/work-pool';
import { checkUpload, type UploadKind } from './file-check';
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

export function createFilesService(deps: {
  store: BlobStore;
  secret: string;
  fileSizeLimitMb: number;
  work: Pick<WorkPool, 'readOfd'>;
}) {
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
  const urlSignature = (key: string, expires: number) => hmac(deps.secret, 'file', key, String(expires));

  async function store(
    db: Db,
    input: {
      bytes: Buffer;
      fileName: string;
      purpose: UploadPurpose;
      ownerPersonId: string | null;
      ownerOrgId: string | null;
    },
  ) {
    const rule = RULES[input.purpose];
    if (input.bytes.length > rule.maxBytes)
      throw new AppError('file.tooLarge', { details: { maxBytes: rule.maxBytes } });
    const checked = await checkUpload(input.bytes, rule.kinds, {
      work: deps.work,
      maxPixels: rule.maxPixels ?? LIMITS.imageMaxPixels,
    });
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
      });
    });
    return { fileKey: key, fileName, size: input.bytes.length, contentType: checked.contentType, sha256 };
  }

  return {
    rules: RULES,
    maxBytes: (purpose: UploadPurpose) => RULES[purpose].maxBytes,

    upload: (db: Db, ctx: AuthContext, input: { bytes: Buffer; fileName: string; purpose: UploadPurpose }) =>
      store(db, { ...input, ownerPersonId: ctx.personId, ownerOrgId: ctx.organizationId }),

    /** Files the platform itself owns (logos, banners); readable by anyone through config. */
    storeSystemFile: (db: Db, input: { bytes: Buffer; fileName: string; purpose: UploadPurpose }) =>
      store(db, { ...input, ownerPersonId: null, ownerOrgId: null }),

    /**
     * A time-limited download address, for the file's uploader or its organisation. Materials (licences,
     * authorisation letters, authority applications) carry identity data: inside the organisation only
     * its administrators and reviewers may read another member's.
     */
    async signedUrl(db: Db, ctx: AuthContext, fileKey: string, ttlSeconds: number) {
      const file = await repo.findFileObject(db, fileKey);
      const sameOrg = !!file && file.owner_org_id !== null && file.owner_org_id === ctx.organizationId;
      const mayRead =
        !!file &&
        (file.owner_person_id === ctx.personId ||
          (sameOrg &&
            (file.purpose !== 'material' ||
              (await hasOrgPermission(db, ctx, 'member.manage')) ||
              (await hasOrgPermission(db, ctx, 'authority.review')))));
      if (!file || !mayRead) throw new AppError('file.notFound');
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      return {
        url: `/v1/file/download/${encodeURIComponent(fileKey)}?expires=${expires}&sig=${urlSignature(fileKey, expires)}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },

    /** For the platform's reviewers (operators): a short-lived address of an applicant's material, any owner. */
    async materialUrlForReviewer(db: Db, fileKey: string, ttlSeconds: number) {
      const file = await repo.findFileObject(db, fileKey);
      if (!file || file.purpose !== 'material') throw new AppError('file.notFound');
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      return {
        url: `/v1/file/download/${encodeURIComponent(fileKey)}?expires=${expires}&sig=${urlSignature(fileKey, expires)}`,
        expiresAt: new Date(expires * 1000).toISOString(),
        organizationId: file.owner_org_id,
      };
    },

    /**
     * A short-lived address of any file, for modules that have checked the caller's right to it
     * themselves (a sign flow's participants reading a seal image of another organisation, say).
     */
    internalUrl(fileKey: string, ttlSeconds: number) {
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      return {
        url: `/v1/file/download/${encodeURIComponent(fileKey)}?expires=${expires}&sig=${urlSignature(fileKey, expires)}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },

    /** A stored file's bytes and metadata, for modules that checked access themselves. */
    async readInternal(db: Db, fileKey: string) {
      const file = await repo.findFileObject(db, fileKey);
      const bytes = file ? await deps.store.get(file.sha256) : null;
      if (!file || !bytes) return null;
      return { bytes, sha256: file.sha256, name: file.name, purpose: file.purpose, file };
    },

    /** Stores bytes the platform produced (a signed version of a file): content-addressed, no file object. */
    async putBlob(db: Db, bytes: Buffer, contentType: string): Promise<string> {
      const sha256 = await deps.store.put(bytes);
      await repo.insertBlobRow(db, { sha256, size: bytes.length, contentType });
      return sha256;
    },

    getBlob: (sha256: string) => deps.store.get(sha256),

    async download(db: Db, fileKey: string, expires: number, sig: string) {
      if (expires < Date.now() / 1000 || !safeEqual(sig, urlSignature(fileKey, expires)))
        throw new AppError('file.notFound');
      const file = await repo.findFileObject(db, fileKey);
      const bytes = file ? await deps.store.get(file.sha256) : null;
      if (!file || !bytes) throw new AppError('file.notFound');
      return { bytes, contentType: file.content_type, name: file.name };
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
