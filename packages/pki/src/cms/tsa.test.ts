import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { octets, oid, seq, smallInteger } from './der';
import {
  TsaError,
  answerTimeStampReq,
  buildTimeStampReq,
  buildTimeStampResp,
  parseTimeStampReq,
  readTimeStampResp,
  timeStampRejection,
} from './tsa';
import {
  has,
  issueIdentity,
  makeTempDir,
  makeTestPki,
  runTool,
  writeFiles,
  type TestPki,
} from './test-fixtures';

const POLICY = '2.25.234770949406353382624719008145168115034.1.1';
const data = new TextEncoder().encode('document to be time-stamped');
const sha = (alg: string, d: Uint8Array): Uint8Array => new Uint8Array(createHash(alg).update(d).digest());

let pki: TestPki;
let dir: string;
let serial = 1;

beforeAll(async () => {
  pki = await makeTestPki();
  dir = makeTempDir();
  writeFiles(dir, {
    'root.pem': pki.root.pem,
    'untrusted.pem': `${pki.tsa.pem}\n${pki.intermediate.pem}\n`,
    'data.bin': data,
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = () => ({
  tsa: { certificate: pki.tsa.certificate, chain: [pki.intermediate.certificate], key: pki.tsa.key },
  serialNumber: Uint8Array.of(0x01, serial++),
  genTime: new Date('2031-05-06T07:08:09.120Z'),
  policy: POLICY,
  accuracyMillis: 1500,
});

describe.skipIf(!has('openssl'))('TSA against openssl ts', () => {
  for (const alg of ['sha256', 'sha1', 'sha512'] as const) {
    it(`answers an openssl ${alg} query with a response openssl verifies`, async () => {
      const q = `q-${alg}.tsq`;
      const r = `r-${alg}.tsr`;
      const made = runTool(
        'openssl',
        ['ts', '-query', '-data', 'data.bin', `-${alg}`, '-cert', '-out', q],
        dir,
      );
      expect(made.status).toBe(0);
      const request = parseTimeStampReq(new Uint8Array(readFileSync(join(dir, q))));
      expect(request.certReq).toBe(true);
      expect(request.nonce?.length).toBeGreaterThan(0);
      expect(Buffer.from(request.hashedMessage).equals(Buffer.from(sha(alg, data)))).toBe(true);

      writeFiles(dir, {
        [r]: await answerTimeStampReq(new Uint8Array(readFileSync(join(dir, q))), options()),
      });
      const text = runTool('openssl', ['ts', '-reply', '-in', r, '-text'], dir).output;
      expect(text).toContain('Status: Granted.');
      expect(text).toContain(`Policy OID: ${POLICY}`);
      expect(text).toContain('Time stamp: May  6 07:08:09.12 2031 GMT');
      expect(text).toContain('Accuracy: 0x01 seconds, 0x01F4 millis');
      expect(text).toMatch(/TSA: DirName:.*CN ?= ?OpenSeal Test TSA/);

      const verify = [
        'ts',
        '-verify',
        '-in',
        r,
        '-queryfile',
        q,
        '-CAfile',
        'root.pem',
        '-untrusted',
        'untrusted.pem',
      ];
      const v = runTool('openssl', verify, dir);
      expect(v.output).toContain('Verification: OK');
    });
  }

  it('omits the TSA certificate when the request does not ask for it', async () => {
    const req = buildTimeStampReq(sha('sha256', data), { certReq: false, nonce: true });
    writeFiles(dir, { 'nocert.tsq': req, 'nocert.tsr': await answerTimeStampReq(req, options()) });
    const printed = runTool(
      'openssl',
      ['ts', '-reply', '-in', 'nocert.tsr', '-token_out', '-out', 'nocert.tok'],
      dir,
    );
    expect(printed.status).toBe(0);
    const certs = runTool(
      'openssl',
      ['pkcs7', '-inform', 'DER', '-in', 'nocert.tok', '-print_certs'],
      dir,
    ).output;
    expect(certs).not.toContain('OpenSeal Test TSA');
    const verify = ['ts', '-verify', '-in', 'nocert.tsr', '-queryfile', 'nocert.tsq', '-CAfile', 'root.pem'];
    expect(runTool('openssl', [...verify, '-untrusted', 'untrusted.pem'], dir).output).toContain(
      'Verification: OK',
    );
  });

  it('a query from buildTimeStampReq is read by openssl', () => {
    writeFiles(dir, {
      'ours.tsq': buildTimeStampReq(sha('sha384', data), { hashAlgorithm: 'SHA-384', nonce: true }),
    });
    const text = runTool('openssl', ['ts', '-query', '-in', 'ours.tsq', '-text'], dir).output;
    expect(text).toContain('Hash Algorithm: sha384');
    expect(text).toContain('Certificate required: yes');
    expect(text).toMatch(/Nonce: 0x[0-9A-F]+/);
  });

  it('a rejection is read by openssl with its failure info', () => {
    writeFiles(dir, { 'rej.tsr': timeStampRejection('badAlg', 'no such hash') });
    const text = runTool('openssl', ['ts', '-reply', '-in', 'rej.tsr', '-text'], dir).output;
    expect(text).toContain('Status: Rejected.');
    expect(text).toContain('no such hash');
    expect(text).toMatch(/unrecognized or unsupported algorithm/i);
  });
});

describe('TSA request handling', () => {
  it('malformed queries become rejections, never exceptions', async () => {
    const cases: Array<[Uint8Array, string]> = [
      [new Uint8Array(0), 'badDataFormat'],
      [Uint8Array.of(0x30, 0x80, 0x00, 0x00), 'badDataFormat'],
      [new TextEncoder().encode('GET / HTTP/1.1'), 'badDataFormat'],
      [buildTimeStampReq(new Uint8Array(32)).subarray(0, 20), 'badDataFormat'],
      [Uint8Array.from([...buildTimeStampReq(new Uint8Array(32)), 0]), 'badDataFormat'],
    ];
    // An unknown hash algorithm (MD5) and a wrong-length SHA-256 imprint.
    const md5 = buildTimeStampReq(new Uint8Array(32));
    const md5Oid = Buffer.from('06092a864886f70d010202', 'hex');
    const sha256Oid = Buffer.from('0609608648016503040201', 'hex');
    const at = Buffer.from(md5).indexOf(sha256Oid);
    const swapped = Uint8Array.from(md5);
    swapped.set(md5Oid, at);
    cases.push([swapped, 'badAlg']);
    const shortImprint = seq(
      smallInteger(1),
      seq(seq(oid('2.16.840.1.101.3.4.2.1')), octets(new Uint8Array(20))),
    );
    cases.push([shortImprint, 'badDataFormat']);
    cases.push([
      seq(smallInteger(2), seq(seq(oid('2.16.840.1.101.3.4.2.1')), octets(new Uint8Array(32)))),
      'badDataFormat',
    ]);
    for (const [der, expected] of cases) {
      const response = readTimeStampResp(await answerTimeStampReq(der, options()));
      expect(response.granted).toBe(false);
      expect(response.failInfo).toBe(expected);
    }
  });

  it('rejects a policy it does not offer and echoes the nonce it was given', async () => {
    const other = buildTimeStampReq(sha('sha256', data), { reqPolicy: '1.2.3.4' });
    expect(readTimeStampResp(await answerTimeStampReq(other, options())).failInfo).toBe('unacceptedPolicy');
    const nonce = Uint8Array.of(0x00, 0xff, 0x01);
    const request = parseTimeStampReq(buildTimeStampReq(sha('sha256', data), { nonce, reqPolicy: POLICY }));
    expect(request.reqPolicy).toBe(POLICY);
    const response = readTimeStampResp(await buildTimeStampResp({ ...options(), request }));
    expect(response.granted).toBe(true);
    expect(Buffer.from(response.token as Uint8Array).includes(Buffer.from('020300ff01', 'hex'))).toBe(true);
  });

  it('refuses to sign with a certificate lacking the critical timeStamping EKU', async () => {
    const request = parseTimeStampReq(buildTimeStampReq(sha('sha256', data)));
    const plain = await issueIdentity({ subject: 'CN=Not a TSA', issuer: pki.intermediate });
    await expect(
      buildTimeStampResp({ ...options(), tsa: { certificate: plain.certificate, key: plain.key }, request }),
    ).rejects.toThrow(/timeStamping/);
  });

  it('TsaError carries the failure info', () => {
    try {
      parseTimeStampReq(Uint8Array.of(1, 2, 3));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TsaError);
      expect((error as TsaError).failInfo).toBe('badDataFormat');
    }
  });
});
