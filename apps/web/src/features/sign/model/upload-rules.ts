import { LIMITS } from '@openseal/core';

/**
 * The browser's side of the sign upload rules (the server checks the same again): at most ten files,
 * pdf or ofd judged by their bytes, no file twice (SHA-256 of the bytes), at least one contract.
 */
export type FileFormat = 'pdf' | 'ofd';
export type FileRole = 'contract' | 'attachment';

export interface PickedFile {
  uid: string;
  name: string;
  size: number;
  sha256: string;
  format: FileFormat;
  role: FileRole;
  /** Set once the server has stored it. */
  fileKey: string | null;
}

export const MAX_SIGN_FILES = LIMITS.signUploadMaxFiles;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

function containsAscii(bytes: Uint8Array, text: string, limit: number): boolean {
  const end = Math.min(bytes.length, limit) - text.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < text.length; j++) if (bytes[i + j] !== text.charCodeAt(j)) continue outer;
    return true;
  }
  return false;
}

/**
 * The format by content: a PDF header in the first kilobyte, or a zip package naming `OFD.xml` (an OFD's
 * entry point) — never by the file's name.
 */
export function sniffFormat(bytes: Uint8Array): FileFormat | null {
  if (containsAscii(bytes, '%PDF-', 1024)) return 'pdf';
  if (startsWith(bytes, ZIP_MAGIC) && containsAscii(bytes, 'OFD.xml', bytes.length)) return 'ofd';
  return null;
}

export type AddRefusal = 'tooMany' | 'format' | 'duplicate' | 'empty' | 'tooLarge';

/** Why a file may not join the list, or null when it may. */
export function refuseFile(
  existing: readonly Pick<PickedFile, 'sha256'>[],
  candidate: { size: number; sha256: string; format: FileFormat | null },
  maxBytes: number | null = null,
): AddRefusal | null {
  if (existing.length >= MAX_SIGN_FILES) return 'tooMany';
  if (candidate.size === 0) return 'empty';
  if (maxBytes !== null && candidate.size > maxBytes) return 'tooLarge';
  if (candidate.format === null) return 'format';
  if (existing.some((f) => f.sha256 === candidate.sha256)) return 'duplicate';
  return null;
}

export function hasContract(files: readonly Pick<PickedFile, 'role'>[]): boolean {
  return files.some((f) => f.role === 'contract');
}

/** Whether the list can go on to placing: files there, all stored, a contract among them. */
export function readyToPlace(files: readonly PickedFile[]): boolean {
  return files.length > 0 && hasContract(files) && files.every((f) => f.fileKey !== null);
}

/** Lower-case hex SHA-256 of the bytes (Web Crypto). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** "1.2 MB" style sizes. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
