import { describe, expect, it } from 'vitest';
import {
  checkFile,
  commonName,
  formatMb,
  hasVisibleBox,
  looksLikePdf,
  numberSignatures,
  resultPath,
  signatureFacts,
  summarise,
  toneOf,
  type SignatureReport,
} from './verify-report';

function sig(over: Partial<SignatureReport> = {}): SignatureReport {
  return {
    field: 'Signature1',
    kind: 'signature',
    subFilter: 'ETSI.CAdES.detached',
    signer: '甲公司合同专用章',
    signingTime: '2025-06-01T08:00:00.000Z',
    page: 1,
    rect: [400, 100, 520, 220],
    byteRange: [0, 1, 2, 3],
    byteRangeOk: true,
    integrity: 'valid',
    coversWholeDocument: true,
    signedRevision: 1,
    modifiedAfter: 'none',
    changes: [],
    chain: 'trusted',
    chainSubjects: [],
    validAtSigningTime: true,
    timestamp: { time: '2025-06-01T08:00:01.000Z', valid: true },
    revocation: { status: 'good', source: 'platform' },
    verdict: 'valid',
    findings: [],
    reasons: [],
    ...over,
  };
}

describe('verification report model', () => {
  it('gives each signature a tone: invalid fails, a caveat warns', () => {
    expect(toneOf(sig())).toBe('valid');
    expect(toneOf(sig({ verdict: 'invalid', integrity: 'invalid' }))).toBe('invalid');
    // Later signatures are the normal case of a contract several parties sign; other permitted changes warn.
    const later = {
      revision: 2,
      kind: 'signature' as const,
      action: 'added' as const,
      detail: 'Signature2 added',
      allowed: true,
    };
    const filled = {
      revision: 2,
      kind: 'form-fill' as const,
      action: 'changed' as const,
      detail: 'field x filled',
      allowed: true,
    };
    expect(toneOf(sig({ modifiedAfter: 'allowed', changes: [later] }))).toBe('valid');
    expect(toneOf(sig({ modifiedAfter: 'allowed', changes: [later, filled] }))).toBe('warning');
    expect(signatureFacts(sig({ modifiedAfter: 'allowed', changes: [later] }))[1]).toEqual({
      key: 'fact.modified.signaturesOnly',
      tone: 'valid',
    });
    expect(toneOf(sig({ revocation: { status: 'unknown', source: 'none' } }))).toBe('warning');
    expect(toneOf(sig({ chain: 'untrusted' }))).toBe('warning');
  });

  it('numbers signatures in signing order, then by page and from the top of the page', () => {
    const list = [
      sig({ field: 'late', signedRevision: 3, page: 1 }),
      sig({ field: 'p2', signedRevision: 1, page: 2 }),
      sig({ field: 'low', signedRevision: 1, page: 1, rect: [0, 10, 50, 60] }),
      sig({ field: 'high', signedRevision: 1, page: 1, rect: [0, 600, 50, 700] }),
      sig({ field: 'stray', signedRevision: -1, page: 1 }),
    ];
    const numbered = numberSignatures(list);
    expect(numbered.map((n) => [n.no, n.sig.field, n.index])).toEqual([
      [1, 'high', 3],
      [2, 'low', 2],
      [3, 'p2', 1],
      [4, 'late', 0],
      [5, 'stray', 4],
    ]);
  });

  it('knows which signatures have a box on a page', () => {
    expect(hasVisibleBox(sig())).toBe(true);
    expect(hasVisibleBox(sig({ rect: [0, 0, 0, 0] }))).toBe(false);
    expect(hasVisibleBox(sig({ page: undefined }))).toBe(false);
    expect(numberSignatures([sig({ rect: undefined })])[0]!.visible).toBe(false);
  });

  it('summarises a report', () => {
    expect(
      summarise({
        verdict: 'invalid',
        signatures: [sig(), sig({ verdict: 'invalid' }), sig({ chain: 'untrusted' })],
      }),
    ).toEqual({ verdict: 'invalid', total: 3, valid: 2, invalid: 1, warnings: 1 });
    expect(summarise({ verdict: 'no-signatures', signatures: [] }).total).toBe(0);
  });

  it('lists the facts of a card as message keys with tones', () => {
    expect(signatureFacts(sig()).every((f) => f.tone === 'valid')).toBe(true);
    const broken = signatureFacts(
      sig({
        integrity: 'invalid',
        modifiedAfter: 'disallowed',
        revocation: { status: 'revoked', source: 'OCSP' },
        timestamp: null,
        validAtSigningTime: null,
      }),
    );
    expect(broken.map((f) => [f.key, f.tone])).toEqual([
      ['fact.integrityBroken', 'invalid'],
      ['fact.modified.disallowed', 'invalid'],
      ['fact.chain.trusted', 'valid'],
      ['fact.revocation.revoked', 'invalid'],
      ['fact.validity.unknown', 'warning'],
      ['fact.timestamp.none', 'warning'],
    ]);
  });

  it('refuses in the browser what the server would refuse: empty, not a PDF, too large', () => {
    const max = 3 * 1024 * 1024;
    expect(checkFile({ name: 'a.pdf', size: 10, type: 'application/pdf' }, max)).toBeNull();
    expect(checkFile({ name: 'A.PDF', size: 10, type: '' }, max)).toBeNull();
    expect(checkFile({ name: 'a.pdf', size: 0, type: 'application/pdf' }, max)).toBe('empty');
    expect(checkFile({ name: 'a.txt', size: 10, type: 'text/plain' }, max)).toBe('notPdf');
    expect(checkFile({ name: 'a.pdf', size: 10, type: 'image/png' }, max)).toBe('notPdf');
    expect(checkFile({ name: 'a.pdf', size: max + 1, type: 'application/pdf' }, max)).toBe('tooLarge');
    expect(looksLikePdf(new TextEncoder().encode('%PDF-1.7\n…'))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode('hello'))).toBe(false);
  });

  it('formats limits and names, and builds result addresses', () => {
    expect(formatMb(3 * 1024 * 1024)).toBe('3 MB');
    expect(formatMb(2.5 * 1024 * 1024)).toBe('2.5 MB');
    expect(commonName('CN=甲公司合同专用章, O=甲公司')).toBe('甲公司合同专用章');
    expect(commonName('O=Only')).toBe('O=Only');
    expect(resultPath('vr_x', false)).toBe('/verifyContractResult?reportId=vr_x');
    expect(resultPath('vr_x', true)).toBe('/verifyContractResult/independence?reportId=vr_x');
  });
});
