import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KeyAlgorithm } from '../types';
import { has, makeTestPki, ORG_SEAL_SUBJECT, run, tempDir } from '../util/test-support';
import { matchesIssuer } from './cert-id';
import { OcspError } from './ocsp-error';
import { parseOcspResponse } from './parse-response';
import { buildOcspRequest, parseOcspRequest } from './request';
import { buildOcspResponse, ocspErrorResponse } from './response';

const hasOpenssl = has('openssl');
if (!hasOpenssl) console.warn('openssl not installed: OCSP checks against openssl skipped');

const revokedAt = new Date('2026-02-03T04:05:06Z');

describe.each<KeyAlgorithm>(['EC-P256', 'RSA-2048'])('OCSP with %s', (algorithm) => {
  it.skipIf(!hasOpenssl)(
    'answers openssl requests; openssl verifies good and revoked answers',
    async () => {
      const pki = await makeTestPki(algorithm);
      const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
      const responder = await pki.issue('ocsp-signer', {
        commonName: 'OpenSeal OCSP',
        organization: 'OpenSeal Test',
      });
      const dir = tempDir();
      try {
        dir.write('root.pem', pki.root.pem);
        dir.write('issuing.pem', pki.issuing.pem);
        dir.write('leaf.pem', leaf.pem);
        for (const [digestFlag, hashAlgorithm] of [
          ['-sha1', 'SHA-1'],
          ['-sha256', 'SHA-256'],
        ] as const) {
          const made = run(
            'openssl',
            ['ocsp', digestFlag, '-issuer', 'issuing.pem', '-cert', 'leaf.pem', '-reqout', 'req.der'],
            dir.path,
          );
          expect(made.status).toBe(0);
          const request = parseOcspRequest(new Uint8Array(readFileSync(join(dir.path, 'req.der'))));
          expect(request.requests).toHaveLength(1);
          const [item] = request.requests;
          expect(item!.hashAlgorithm).toBe(hashAlgorithm);
          expect(item!.serialHex).toBe(leaf.serialHex);
          expect(matchesIssuer(item!, pki.issuing.der)).toBe(true);
          expect(matchesIssuer(item!, pki.root.der)).toBe(false);
          expect(request.nonce?.length).toBeGreaterThanOrEqual(8);

          for (const status of ['good', { revokedAt, reason: 'keyCompromise' }] as const) {
            const thisUpdate = new Date(Date.now() - 60_000);
            const der = await buildOcspResponse({
              responder: { certificate: responder.der, key: responder.key },
              issuerCertificate: pki.issuing.der,
              answers: [
                {
                  serialHex: item!.serialHex,
                  status,
                  thisUpdate,
                  nextUpdate: new Date(Date.now() + 3_600_000),
                  hashAlgorithm,
                },
              ],
              ...(request.nonce ? { nonce: request.nonce } : {}),
            });
            dir.write('resp.der', der);
            // With -reqin openssl checks our nonce echo; -cert would build a fresh request (new nonce).
            const nonceChecked = run(
              'openssl',
              [
                'ocsp',
                '-respin',
                'resp.der',
                '-reqin',
                'req.der',
                '-CAfile',
                'root.pem',
                '-verify_other',
                'issuing.pem',
              ],
              dir.path,
            );
            expect(nonceChecked.stderr).toContain('Response verify OK');
            expect(nonceChecked.stderr + nonceChecked.stdout).not.toMatch(/nonce/i);
            const checked = run(
              'openssl',
              [
                'ocsp',
                '-respin',
                'resp.der',
                '-no_nonce',
                digestFlag,
                '-issuer',
                'issuing.pem',
                '-cert',
                'leaf.pem',
                '-CAfile',
                'root.pem',
                '-verify_other',
                'issuing.pem',
              ],
              dir.path,
            );
            expect(checked.stderr).toContain('Response verify OK');
            if (status === 'good') {
              expect(checked.stdout).toMatch(/leaf\.pem: good/);
            } else {
              expect(checked.stdout).toMatch(/leaf\.pem: revoked/);
              expect(checked.stdout).toMatch(/Reason: keyCompromise/);
              expect(checked.stdout).toContain('Revocation Time: Feb  3 04:05:06 2026 GMT');
            }
          }
        }

        // The CA may answer for itself, without including its certificate.
        const direct = await buildOcspResponse({
          responder: { certificate: pki.issuing.der, key: pki.issuing.key },
          issuerCertificate: pki.issuing.der,
          answers: [{ serialHex: leaf.serialHex, status: 'good', thisUpdate: new Date() }],
          includeResponderCertificate: false,
        });
        dir.write('direct.der', direct);
        const checked = run(
          'openssl',
          [
            'ocsp',
            '-respin',
            'direct.der',
            '-issuer',
            'issuing.pem',
            '-cert',
            'leaf.pem',
            '-CAfile',
            'root.pem',
            '-verify_other',
            'issuing.pem',
          ],
          dir.path,
        );
        expect(checked.stderr).toContain('Response verify OK');
        expect(checked.stdout).toMatch(/leaf\.pem: good/);
        expect(parseOcspResponse(direct).responderCertificates).toEqual([]);
      } finally {
        dir.remove();
      }
    },
    60_000,
  );

  it('parseOcspResponse reads statuses and checks who signed', async () => {
    const pki = await makeTestPki(algorithm);
    const responder = await pki.issue('ocsp-signer', { commonName: 'OpenSeal OCSP' });
    const a = await pki.issue('person', { commonName: 'A', serialNumber: 'aa' });
    const b = await pki.issue('person', { commonName: 'B', serialNumber: 'bb' });
    const thisUpdate = new Date('2026-03-01T00:00:00.400Z');
    const nextUpdate = new Date('2026-03-02T00:00:00Z');
    // Inside the responder certificate's validity, which starts now.
    const producedAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 5000);
    const nonce = new Uint8Array([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6]);
    const der = await buildOcspResponse({
      responder: { certificate: responder.der, key: responder.key },
      issuerCertificate: pki.issuing.der,
      answers: [
        { serialHex: a.serialHex, status: 'good', thisUpdate, nextUpdate },
        {
          serialHex: b.serialHex,
          status: { revokedAt, reason: 'certificateHold' },
          thisUpdate,
          hashAlgorithm: 'SHA-256',
        },
        { serialHex: '0badc0de', status: 'unknown', thisUpdate },
      ],
      nonce,
      producedAt,
    });
    const parsed = parseOcspResponse(der);
    expect(parsed.status).toBe('successful');
    expect(parsed.producedAt).toEqual(producedAt);
    expect(parsed.thisUpdate).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(parsed.nextUpdate).toEqual(nextUpdate);
    expect(parsed.nonce).toEqual(nonce);
    expect(parsed.find(a.serialHex)).toMatchObject({ status: 'good', hashAlgorithm: 'SHA-1' });
    expect(parsed.find(b.serialHex)).toMatchObject({
      status: 'revoked',
      revokedAt,
      reason: 'certificateHold',
      hashAlgorithm: 'SHA-256',
    });
    expect(parsed.find('0badc0de')?.status).toBe('unknown');
    expect(matchesIssuer(parsed.find(b.serialHex)!, pki.issuing.der)).toBe(true);
    expect(parsed.responderCertificates).toHaveLength(1);
    expect(parsed.verify(responder.der)).toBe(true);
    expect(parsed.verify(pki.issuing.der)).toBe(false);
    expect(parsed.findAuthorizedSigner(pki.issuing.der)).toEqual(responder.der);

    // A responder certificate from another PKI is not authorised for this issuer, even if the
    // response embeds it and is validly signed by it.
    const other = await makeTestPki(algorithm);
    const rogue = await other.issue('ocsp-signer', { commonName: 'OpenSeal Test Issuing CA' });
    await expect(
      buildOcspResponse({
        responder: { certificate: rogue.der, key: rogue.key },
        issuerCertificate: pki.issuing.der,
        answers: [{ serialHex: a.serialHex, status: 'good', thisUpdate }],
      }),
    ).rejects.toThrow(/neither the issuing CA/);
    const forged = await buildOcspResponse({
      responder: { certificate: rogue.der, key: rogue.key },
      issuerCertificate: other.issuing.der,
      answers: [{ serialHex: a.serialHex, status: 'good', thisUpdate }],
    });
    expect(parseOcspResponse(forged).findAuthorizedSigner(pki.issuing.der)).toBeUndefined();

    // A signature bit flipped: nobody verifies it.
    const tampered = new Uint8Array(der);
    const sigAt = Buffer.from(der).indexOf(Buffer.from(responder.der)) - 10;
    tampered[sigAt]! ^= 1;
    expect(parseOcspResponse(tampered).findAuthorizedSigner(pki.issuing.der)).toBeUndefined();
  }, 60_000);
});

describe('OCSP requests and errors', () => {
  it('garbage is malformedRequest', () => {
    for (const bad of [
      new Uint8Array([]),
      new Uint8Array([0x30, 0x03, 1, 2, 3]),
      new TextEncoder().encode('hello'),
    ]) {
      let error: unknown;
      try {
        parseOcspRequest(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(OcspError);
      expect((error as OcspError).status).toBe('malformedRequest');
    }
  });

  it('buildOcspRequest round-trips and openssl reads it', async () => {
    const pki = await makeTestPki('EC-P256');
    const leaf = await pki.issue('person', { commonName: 'C', serialNumber: 'cc' });
    const nonce = new Uint8Array(16).fill(0xab);
    const der = buildOcspRequest({
      issuerCertificate: pki.issuing.der,
      serialHex: [leaf.serialHex, '01'],
      hashAlgorithm: 'SHA-256',
      nonce,
    });
    const parsed = parseOcspRequest(der);
    expect(parsed.requests.map((r) => r.serialHex)).toEqual([leaf.serialHex, '01']);
    expect(
      parsed.requests.every((r) => r.hashAlgorithm === 'SHA-256' && matchesIssuer(r, pki.issuing.der)),
    ).toBe(true);
    expect(parsed.nonce).toEqual(nonce);
    if (!hasOpenssl) return;
    const dir = tempDir();
    try {
      dir.write('req.der', der);
      const text = run('openssl', ['ocsp', '-reqin', 'req.der', '-req_text', '-noverify'], dir.path);
      expect(text.stdout).toContain('Hash Algorithm: sha256');
      expect(text.stdout.toUpperCase()).toContain(`SERIAL NUMBER: ${leaf.serialHex.toUpperCase()}`);
      expect(text.stdout).toContain('OCSP Nonce');
    } finally {
      dir.remove();
    }
  }, 60_000);

  it('error responses carry only the status', () => {
    expect(parseOcspResponse(ocspErrorResponse('unauthorized')).status).toBe('unauthorized');
    expect(parseOcspResponse(ocspErrorResponse('malformedRequest')).status).toBe('malformedRequest');
    expect(parseOcspResponse(ocspErrorResponse('tryLater')).responses).toEqual([]);
    expect(() => ocspErrorResponse('successful' as never)).toThrow(TypeError);
    if (!hasOpenssl) return;
    const dir = tempDir();
    try {
      dir.write('err.der', ocspErrorResponse('sigRequired'));
      const out = run('openssl', ['ocsp', '-respin', 'err.der', '-resp_text', '-noverify'], dir.path);
      expect(out.stdout + out.stderr).toMatch(/sigrequired \(5\)/i);
    } finally {
      dir.remove();
    }
  });
});
