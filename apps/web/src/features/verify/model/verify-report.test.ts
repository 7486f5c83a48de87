import { describe, expect, it } from 'vitest';
import {
  checkFile,
  commonName,
  describeChange,
  formatMb,
  hasVisibleBox,
  looksLikePdf,
  numberSignatures,
  orderedFindings,
  resultPath,
  signatureFacts,
  statusOf,
  summarise,
  toneOf,
  unconfirmedOf,
  verdictTitleKey,
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

  it('shows three verdicts: valid, indeterminate in amber, invalid; an untrusted certificate is never valid', () => {
    expect(statusOf(sig())).toBe('valid');
    expect(statusOf(sig({ verdict: 'invalid' }))).toBe('invalid');
    const forged = sig({
      signer: '杭州示例科技有限公司合同专用章',
      signerIssuer: 'CN=杭州示例科技有限公司合同专用章, O=杭州示例科技有限公司',
      chain: 'untrusted',
      verdict: 'indeterminate',
      subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
      findings: [
        { code: 'timestamp.none', severity: 'info' },
        {
          code: 'chain.selfSigned',
          severity: 'indeterminate',
          params: { subject: 'CN=杭州示例科技有限公司合同专用章, O=杭州示例科技有限公司' },
        },
      ],
    });
    expect([statusOf(forged), toneOf(forged)]).toEqual(['indeterminate', 'warning']);
    expect(unconfirmedOf(forged)).toEqual({ signer: true, changes: false });
    // Whatever a server says, a certificate outside the trust anchors is not drawn green.
    expect(statusOf(sig({ chain: 'untrusted', verdict: 'valid' }))).toBe('indeterminate');
    expect(orderedFindings(forged).map((f) => f.code)).toEqual(['chain.selfSigned', 'timestamp.none']);

    const s = summarise({ verdict: 'indeterminate', signatures: [sig(), forged] });
    expect(s).toMatchObject({ verdict: 'indeterminate', total: 2, valid: 1, indeterminate: 1, invalid: 0 });
    expect(verdictTitleKey(s)).toBe('verdict.indeterminate');
    // A server's "valid" over a signature that is not is read as the signature's verdict.
    expect(summarise({ verdict: 'valid', signatures: [sig(), forged] }).verdict).toBe('indeterminate');
    expect(summarise({ verdict: 'valid', signatures: [sig({ verdict: 'invalid' })] }).verdict).toBe(
      'invalid',
    );
  });

  it('never shows text added after the last signature as plain valid, and lists it with page and text', () => {
    const mallory = {
      revision: 2,
      kind: 'annotation' as const,
      action: 'added' as const,
      allowed: true,
      detail: 'FreeText annotation added on page 1',
      page: 1,
      subtype: 'FreeText',
      text: 'PAY 1,000,000 TO MALLORY',
      visible: true,
    };
    const added = sig({
      modifiedAfter: 'allowed',
      changes: [mallory],
      verdict: 'indeterminate',
      subIndication: 'UNCONFIRMED_MODIFICATION',
      findings: [
        {
          code: 'changes.visibleAnnotation',
          severity: 'indeterminate',
          params: { page: 1, subtype: 'FreeText', text: mallory.text },
        },
      ],
    });
    expect(statusOf(added)).toBe('indeterminate');
    expect(unconfirmedOf(added)).toEqual({ signer: false, changes: true });
    expect(verdictTitleKey(summarise({ verdict: 'indeterminate', signatures: [added] }))).toBe(
      'verdict.indeterminateChanges',
    );
    expect(signatureFacts(added)[1]).toEqual({ key: 'fact.modified.visible', tone: 'warning' });
    // Even if a server called it valid, a visible addition keeps it from green.
    expect(toneOf({ ...added, verdict: 'valid', findings: [] })).toBe('warning');
    expect(describeChange(mallory)).toEqual({
      key: 'annotationAdded',
      params: { page: 1, subtype: 'FreeText' },
      quote: 'PAY 1,000,000 TO MALLORY',
    });
    expect(describeChange({ ...mallory, action: 'removed', text: undefined })).toEqual({
      key: 'annotation.removed',
      params: { page: 1, subtype: 'FreeText' },
    });
    const base = { revision: 1, action: 'changed' as const, allowed: true, detail: '' };
    expect(describeChange({ ...base, kind: 'form-fill', field: 'name', value: 'Alice' })).toEqual({
      key: 'formFilled',
      params: { field: 'name' },
      quote: 'Alice',
    });
    expect(describeChange({ ...base, kind: 'form-fill', action: 'added', field: 'x', page: 2 }).key).toBe(
      'fieldAdded',
    );
    expect(describeChange({ ...base, kind: 'signature', action: 'added', field: 'S2', page: 1 })).toEqual({
      key: 'signatureOnPage',
      params: { page: 1, field: 'S2' },
    });
    expect(describeChange({ ...base, kind: 'dss', action: 'added' }).key).toBe('dss');
    expect(describeChange({ ...base, kind: 'other', object: 12 })).toEqual({
      key: 'otherObject',
      params: { object: 12 },
    });
    expect(describeChange({ ...base, kind: 'page-added', action: 'added', page: 3 })).toEqual({
      key: 'page-added',
      params: { page: 3 },
    });
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
    ).toMatchObject({ verdict: 'invalid', total: 3, valid: 1, invalid: 1, indeterminate: 1, warnings: 0 });
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

describe('verification page words', () => {
  it('has every change line, status and verdict title in both languages', async () => {
    const { zhCN, en } = await import('../messages/verify');
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    expect(keys(en)).toEqual(keys(zhCN));
    const all = new Set(keys(zhCN));
    for (const k of [
      'annotationAdded',
      'annotationImage',
      'annotation.changed',
      'annotation.removed',
      'fieldAdded',
      'formFilled',
      'signature',
      'signatureOnPage',
      'dss',
      'page-added',
      'page-removed',
      'content',
      'catalog',
      'otherObject',
      'other',
    ])
      expect(all.has(`verify.changeLine.${k}`), k).toBe(true);
    for (const s of ['valid', 'notes', 'indeterminate', 'invalid'])
      expect(all.has(`verify.status.${s}`)).toBe(true);
    for (const v of ['valid', 'invalid', 'indeterminate', 'indeterminateChanges', 'no-signatures']) {
      expect(all.has(`verify.verdict.${v}`)).toBe(true);
      expect(all.has(`verify.verdictText.${v}`)).toBe(true);
    }
    expect(zhCN.verify.verdict.indeterminate).toContain('签名人未经本平台确认');
    expect(en.verify.verdict.indeterminate).toContain(
      'Signer not confirmed by this platform'.replace('Signer', 'signer'),
    );
  });
});
