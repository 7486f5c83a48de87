/**
 * What the agent does with keys, one function per HTTP call. Each runs inside `withModule`, synchronously
 * (PKCS#11 calls are native and blocking), so one call's session never interleaves with another's.
 */
import { X509Certificate } from 'node:crypto';
import { AppError } from '@openseal/core';
import { describeCertificate, toPem } from '@openseal/pki';
import type { PKCS11 } from 'pkcs11js';
import type { AgentConfig } from './config';
import { withModule } from './pkcs11/module';
import { isLocked, loginUser, logout, readFailures, resetPin } from './pkcs11/pin';
import {
  certificates,
  chooseToken,
  dataObjects,
  findPrivateKey,
  generateKeyPair,
  presentTokens,
  publicKeys,
  SEAL_IMAGE_APPLICATION,
  sha256,
  signDigest,
  tokenFailure,
  withSession,
  writeCertificate,
  writeDataObject,
  type KeyAlgorithm,
  type Token,
  type TokenCertificate,
} from './pkcs11/token';

/** The organisation the web app says is logged in; a key of another holder is refused (spec section 8). */
export interface ExpectedHolder {
  organizeName?: string | undefined;
  uscc?: string | undefined;
}

export interface CertificateView {
  keyId: string;
  label: string;
  /** A certificate whose key pair is on this token (and not a CA's): the key's seal certificate. */
  isSealCertificate: boolean;
  der: string;
  pem: string;
  summary: {
    subject: string;
    issuer: string;
    commonName: string | null;
    organization: string | null;
    uscc: string | null;
    serial: string;
    notBefore: string;
    notAfter: string;
    keyAlgorithm: string;
    isCa: boolean;
  } | null;
}

interface SealCertificate {
  cert: TokenCertificate;
  view: CertificateView;
  algorithm: KeyAlgorithm;
}

function viewOf(c: TokenCertificate, pairedKeyIds: Set<string>): CertificateView {
  let summary: CertificateView['summary'] = null;
  try {
    const s = describeCertificate(c.der);
    summary = {
      subject: s.subject,
      issuer: s.issuer,
      commonName: s.commonName ?? null,
      organization: s.organization ?? null,
      uscc: s.organizationIdentifier ?? null,
      serial: s.serialHex,
      notBefore: s.notBefore.toISOString(),
      notAfter: s.notAfter.toISOString(),
      keyAlgorithm: s.keyAlgorithm,
      isCa: s.isCa,
    };
  } catch {
    // A certificate another application left on the key that we cannot read is listed, not used.
  }
  return {
    keyId: c.keyId,
    label: c.label,
    isSealCertificate: summary !== null && !summary.isCa && pairedKeyIds.has(c.keyId),
    der: c.der.toString('base64'),
    pem: toPem(c.der),
    summary,
  };
}

/** Key ids whose public key equals the SPKI of the certificate with the same id. */
function pairedKeyIds(lib: PKCS11, session: Buffer, certs: TokenCertificate[]) {
  const keys = publicKeys(lib, session);
  const paired = new Map<string, KeyAlgorithm>();
  for (const c of certs) {
    let spki: Buffer;
    try {
      spki = new X509Certificate(c.der).publicKey.export({ format: 'der', type: 'spki' });
    } catch {
      continue;
    }
    const key = keys.find((k) => k.keyId === c.keyId && k.spki?.equals(spki));
    if (key && key.algorithm !== 'other') paired.set(c.keyId, key.algorithm);
  }
  return paired;
}

function readCertificates(lib: PKCS11, session: Buffer) {
  const certs = certificates(lib, session);
  const paired = pairedKeyIds(lib, session, certs);
  const ids = new Set(paired.keys());
  return { certs, paired, views: certs.map((c) => viewOf(c, ids)) };
}

export function holderMatches(view: CertificateView, holder: ExpectedHolder | undefined): boolean {
  if (!holder) return true;
  if (holder.uscc !== undefined && view.summary?.uscc !== holder.uscc) return false;
  if (holder.organizeName !== undefined && view.summary?.organization !== holder.organizeName) return false;
  return true;
}

/**
 * The seal certificate a signature is made with: the one named (by key id or certificate serial), or
 * the valid one that lasts longest. None at all, or none valid now, is "UKey unavailable"; one of another
 * holder is "holder mismatch".
 */
function sealCertificate(
  lib: PKCS11,
  session: Buffer,
  pick: { keyId?: string | undefined; certSerial?: string | undefined },
  holder: ExpectedHolder | undefined,
): SealCertificate {
  const { certs, paired, views } = readCertificates(lib, session);
  let candidates = views
    .map((view, i) => ({ view, cert: certs[i]! }))
    .filter((c) => c.view.isSealCertificate)
    .filter((c) => pick.keyId === undefined || c.view.keyId === pick.keyId)
    .filter((c) => pick.certSerial === undefined || c.view.summary?.serial === pick.certSerial.toLowerCase());
  if (candidates.length === 0)
    throw new AppError('ukey.unavailable', { details: { reason: 'noSealCertificate' } });
  const now = Date.now();
  candidates = candidates.filter(
    (c) => Date.parse(c.view.summary!.notBefore) <= now && now < Date.parse(c.view.summary!.notAfter),
  );
  if (candidates.length === 0)
    throw new AppError('ukey.unavailable', { details: { reason: 'certificateExpired' } });
  const ofHolder = candidates.filter((c) => holderMatches(c.view, holder));
  if (ofHolder.length === 0)
    throw new AppError('ukey.holderMismatch', {
      details: {
        organization: candidates[0]!.view.summary!.organization,
        uscc: candidates[0]!.view.summary!.uscc,
      },
    });
  ofHolder.sort((a, b) => Date.parse(b.view.summary!.notAfter) - Date.parse(a.view.summary!.notAfter));
  const chosen = ofHolder[0]!;
  return { ...chosen, algorithm: paired.get(chosen.view.keyId)! };
}

export function createKeyOperations(config: AgentConfig) {
  /** One token, one session, the PIN proven (when given), then `fn`; logged out afterwards. */
  function onToken<T>(
    serial: string | undefined,
    pin: string | undefined,
    fn: (lib: PKCS11, session: Buffer, token: Token) => T,
  ): Promise<T> {
    return withModule(config.modulePath, (lib) => {
      const token = chooseToken(presentTokens(lib), serial);
      return withSession(lib, token, (session) => {
        try {
          if (pin !== undefined) loginUser(lib, session, token, pin, config.pinMaxTries);
          try {
            return fn(lib, session, token);
          } finally {
            if (pin !== undefined) logout(lib, session);
          }
        } catch (error) {
          throw tokenFailure(error);
        }
      });
    });
  }

  return {
    /** Every key present: serial, label, maker, whether a seal certificate is on it, the PIN state. */
    list: () =>
      withModule(config.modulePath, (lib) =>
        presentTokens(lib).map((token) =>
          withSession(lib, token, (session) => {
            try {
              const failures = readFailures(lib, session);
              const { views } = readCertificates(lib, session);
              const locked = isLocked(token, failures, config.pinMaxTries);
              return {
                serial: token.serial,
                label: token.label,
                manufacturer: token.manufacturer,
                model: token.model,
                hasSealCertificate: views.some((v) => v.isSealCertificate),
                locked,
                attemptsLeft: locked ? 0 : config.pinMaxTries - failures,
              };
            } catch (error) {
              throw tokenFailure(error);
            }
          }),
        ),
      ),

    readCertificates: (serial: string | undefined, holder: ExpectedHolder | undefined) =>
      onToken(serial, undefined, (lib, session, token) => {
        const { views } = readCertificates(lib, session);
        const seals = views.filter((v) => v.isSealCertificate);
        if (holder && seals.length > 0 && !seals.some((v) => holderMatches(v, holder)))
          throw new AppError('ukey.holderMismatch', {
            details: { organization: seals[0]!.summary?.organization, uscc: seals[0]!.summary?.uscc },
          });
        const images = dataObjects(lib, session, SEAL_IMAGE_APPLICATION).map((o) => ({
          sealCode: o.label,
          keyId: o.keyId,
          size: o.value.length,
          imagePng: o.value.toString('base64'),
        }));
        return { serial: token.serial, certificates: views, sealImages: images };
      }),

    verifyPin: (serial: string | undefined, pin: string) =>
      onToken(serial, pin, (_lib, _session, token) => ({
        serial: token.serial,
        verified: true as const,
        attemptsLeft: config.pinMaxTries,
      })),

    resetPin: (serial: string | undefined, soPin: string, newPin: string | undefined) =>
      onToken(serial, undefined, (lib, session, token) => {
        resetPin(lib, session, soPin, newPin);
        return { serial: token.serial, reset: true as const, attemptsLeft: config.pinMaxTries };
      }),

    generateKeyPair: (serial: string | undefined, pin: string, algorithm: KeyAlgorithm, label: string) =>
      onToken(serial, pin, (lib, session, token) => {
        const { keyId, spki } = generateKeyPair(lib, session, algorithm, label);
        return { serial: token.serial, keyId, algorithm, publicKeySpki: spki.toString('base64') };
      }),

    writeCertificate: (
      serial: string | undefined,
      pin: string,
      input: {
        certificate: Buffer;
        label: string;
        sealImages: Array<{ sealCode: string; imagePng: Buffer }>;
        holder: ExpectedHolder | undefined;
      },
    ) =>
      onToken(serial, pin, (lib, session, token) => {
        let summary: ReturnType<typeof describeCertificate>;
        try {
          summary = describeCertificate(input.certificate);
        } catch (cause) {
          throw new AppError('ukey.certInvalid', { cause });
        }
        if (
          (input.holder?.uscc !== undefined && summary.organizationIdentifier !== input.holder.uscc) ||
          (input.holder?.organizeName !== undefined && summary.organization !== input.holder.organizeName)
        )
          throw new AppError('ukey.holderMismatch', {
            details: { organization: summary.organization, uscc: summary.organizationIdentifier },
          });
        const keyId = writeCertificate(lib, session, input.certificate, input.label);
        for (const image of input.sealImages)
          writeDataObject(lib, session, {
            application: SEAL_IMAGE_APPLICATION,
            label: image.sealCode,
            value: image.imagePng,
            keyId,
          });
        return {
          serial: token.serial,
          keyId,
          certSerial: summary.serialHex,
          sealImages: input.sealImages.length,
        };
      }),

    sign: (
      serial: string | undefined,
      pin: string,
      input: {
        digest: Buffer;
        keyId?: string | undefined;
        certSerial?: string | undefined;
        holder: ExpectedHolder | undefined;
      },
    ) =>
      withModule(config.modulePath, (lib) => {
        const token = chooseToken(presentTokens(lib), serial);
        return withSession(lib, token, (session) => {
          try {
            // Which certificate, and whose, is settled before the PIN is tried: a wrong key costs no attempt.
            const seal = sealCertificate(lib, session, input, input.holder);
            loginUser(lib, session, token, pin, config.pinMaxTries);
            try {
              const privateKey = findPrivateKey(lib, session, seal.view.keyId);
              if (!privateKey)
                throw new AppError('ukey.unavailable', { details: { reason: 'noPrivateKey' } });
              const signature = signDigest(lib, session, privateKey, seal.algorithm, input.digest);
              return {
                serial: token.serial,
                keyId: seal.view.keyId,
                algorithm: seal.algorithm,
                signature: signature.toString('base64'),
                certificate: seal.view.der,
                certSerial: seal.view.summary!.serial,
              };
            } finally {
              logout(lib, session);
            }
          } catch (error) {
            throw tokenFailure(error);
          }
        });
      }),

    sha256,
  };
}

export type KeyOperations = ReturnType<typeof createKeyOperations>;
