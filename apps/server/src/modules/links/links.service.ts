import { randomInt } from 'node:crypto';
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import QRCode from 'qrcode';
import * as repo from './links.repository';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 10 base62 characters: 59 bits, so codes cannot be walked or guessed. */
export const CODE_LENGTH = 10;
export const CODE_PATTERN = /^[0-9A-Za-z]{10}$/;
/** How long a link sent in a text message opens its page. */
export const LINK_TTL_DAYS = 30;
/** The longest text a QR code carries (an address with its query). */
export const QR_MAX_CONTENT = 1024;

/** Where a short link may lead: a path of this site (with its query), never another site. */
export function isSameSitePath(target: string): boolean {
  return (
    target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\') && !/[\s\0]/.test(target)
  );
}

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/**
 * Short links for text messages (`/s/<code>` opens a page of this site, so a phone gets it in one tap) and
 * QR codes of this site's addresses, for a person to carry on from the desktop on their phone.
 */
export function createLinksService(deps: { publicUrl: string }) {
  const origin = new URL(deps.publicUrl).origin;

  /** The full address of a short link to a same-site path. */
  async function shorten(db: Db, target: string, purpose: string, ttlDays = LINK_TTL_DAYS): Promise<string> {
    if (!isSameSitePath(target)) throw new Error(`a short link leads to a path of this site, not ${target}`);
    const code = newCode();
    await repo.insertLink(db, {
      code,
      target,
      purpose,
      expires_at: new Date(Date.now() + ttlDays * 86_400_000),
    });
    return `${deps.publicUrl}/s/${code}`;
  }

  /** The page a code opens, or null when it is unknown or expired. */
  async function open(db: Db, code: string): Promise<string | null> {
    if (!CODE_PATTERN.test(code)) return null;
    return repo.openLink(db, code, new Date());
  }

  /**
   * A QR code of an address of this platform (a path, or a full address on its own origin), as an SVG or PNG
   * data URL. Other content is refused: the platform does not lend its name to other sites' codes.
   */
  async function qrCode(content: string, format: 'svg' | 'png') {
    let address: URL;
    try {
      address = new URL(content, origin);
    } catch {
      throw new AppError('qrcode.notOwnAddress');
    }
    if (content.length > QR_MAX_CONTENT || address.origin !== origin)
      throw new AppError('qrcode.notOwnAddress');
    const text = address.href;
    const options = { errorCorrectionLevel: 'M' as const, margin: 1 };
    const image =
      format === 'png'
        ? await QRCode.toDataURL(text, { ...options, width: 360 })
        : `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(text, { ...options, type: 'svg' })).toString('base64')}`;
    return { content: text, format, image };
  }

  return { shorten, open, qrCode, deleteExpired: repo.deleteExpired };
}

export type LinksService = ReturnType<typeof createLinksService>;
