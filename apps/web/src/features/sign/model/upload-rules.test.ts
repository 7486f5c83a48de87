import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  hasContract,
  MAX_SIGN_FILES,
  readyToPlace,
  refuseFile,
  sha256Hex,
  sniffFormat,
  type PickedFile,
} from './upload-rules';

const ascii = (text: string) => new TextEncoder().encode(text);
const file = (over: Partial<PickedFile> = {}): PickedFile => ({
  uid: 'u',
  name: 'a.pdf',
  size: 10,
  sha256: 'aa',
  format: 'pdf',
  role: 'contract',
  fileKey: 'k',
  ...over,
});

describe('sign upload rules', () => {
  it('judges the format by the bytes, not the name', () => {
    expect(sniffFormat(ascii('%PDF-1.7\n...'))).toBe('pdf');
    expect(sniffFormat(ascii('\n\n%PDF-1.4'))).toBe('pdf');
    const ofd = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...ascii('....OFD.xml....')]);
    expect(sniffFormat(ofd)).toBe('ofd');
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...ascii('word/document.xml')]);
    expect(sniffFormat(zip)).toBeNull();
    expect(sniffFormat(ascii('GIF89a'))).toBeNull();
  });

  it('refuses an eleventh file, a second copy, an empty, an oversized or an unknown file', () => {
    const ten = Array.from({ length: MAX_SIGN_FILES }, (_, i) => file({ sha256: String(i) }));
    expect(MAX_SIGN_FILES).toBe(10);
    expect(refuseFile(ten, { size: 1, sha256: 'x', format: 'pdf' })).toBe('tooMany');
    expect(refuseFile([file()], { size: 1, sha256: 'aa', format: 'pdf' })).toBe('duplicate');
    expect(refuseFile([], { size: 0, sha256: 'x', format: 'pdf' })).toBe('empty');
    expect(refuseFile([], { size: 11, sha256: 'x', format: 'pdf' }, 10)).toBe('tooLarge');
    expect(refuseFile([], { size: 1, sha256: 'x', format: null })).toBe('format');
    expect(refuseFile([file()], { size: 1, sha256: 'bb', format: 'ofd' })).toBeNull();
  });

  it('needs a contract among stored files before placing', () => {
    expect(hasContract([file({ role: 'attachment' })])).toBe(false);
    expect(readyToPlace([file({ role: 'attachment' })])).toBe(false);
    expect(readyToPlace([file(), file({ role: 'attachment', sha256: 'b' })])).toBe(true);
    expect(readyToPlace([file({ fileKey: null })])).toBe(false);
    expect(readyToPlace([])).toBe(false);
  });

  it('hashes bytes with Web Crypto as lower-case hex', async () => {
    expect(await sha256Hex(ascii('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('prints sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
