import { describe, expect, it } from 'vitest';
import { parseManifest, parsePdfsigReference, pdfsigRangesToByteRange } from './pdfsig-output';

const SAMPLE = `# header comment
===== a.pdf
Syntax Error (0): Illegal values in ByteRange array
Digital Signature Info of: a.pdf
Signature #1:
  - Signature Field Name: Signature1
  - Signer Certificate Common Name: good-user
  - Signature Type: ETSI.CAdES.detached
  - Signed Ranges: [0 - 18801], [37747 - 151126]
  - Not total document signed
  - Signature Validation: Signature has not yet been verified.
Signature #2:
  - Signature Field Name: Empty
  The signature form field is not signed.
Signature #3:
  - Signature Field Name: form1[0].Sig[0]
  - Signed Ranges: [0 - 10], [20 - 30]
  - Total document signed
  - Signature Validation: Digest Mismatch.
[exit=0]

===== b.pdf
Digital Signature Info of: b.pdf
Signature #1:
  - Signature Field Name: S
  - Signature Validation: Unknown Validation Failure.
Signature #2:
  - Signature Field Name: T
  - Signature Validation: Signature is Valid.
  - Certificate Validation: Certificate issuer isn't Trusted.
[exit=2]
`;

describe('pdfsig output', () => {
  it('parses runs per file with field, ranges, coverage and validation', () => {
    const runs = parsePdfsigReference(SAMPLE);
    expect([...runs.keys()]).toEqual(['a.pdf', 'b.pdf']);
    const a = runs.get('a.pdf');
    expect(a?.exitCode).toBe(0);
    expect(a?.signatures.map((s) => [s.index, s.field, s.validation])).toEqual([
      [1, 'Signature1', 'not-verified'],
      [2, 'Empty', 'unsigned'],
      [3, 'form1[0].Sig[0]', 'digest-mismatch'],
    ]);
    expect(a?.signatures[0]?.ranges).toEqual([
      [0, 18801],
      [37747, 151126],
    ]);
    expect(a?.signatures[0]?.totalDocumentSigned).toBe(false);
    expect(a?.signatures[2]?.totalDocumentSigned).toBe(true);
    expect(pdfsigRangesToByteRange(a?.signatures[0]?.ranges ?? [])).toEqual([0, 18801, 37747, 113379]);
    expect(runs.get('b.pdf')?.signatures.map((s) => s.validation)).toEqual(['unknown-failure', 'valid']);
    expect(runs.get('b.pdf')?.signatures.map((s) => s.certificate)).toEqual([undefined, 'untrusted']);
    expect(runs.get('b.pdf')?.exitCode).toBe(2);
  });

  it('parses a tab-separated manifest by its header', () => {
    const rows = parseManifest('filename\tsize\nx.pdf\t10\ny.pdf\t\n');
    expect(rows).toEqual([
      { filename: 'x.pdf', size: '10' },
      { filename: 'y.pdf', size: '' },
    ]);
  });
});
