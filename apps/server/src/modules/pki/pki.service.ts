/**
 * The platform's authorities: a root CA, an issuing CA for seals and people, an OCSP responder, a
 * timestamp unit and the evidence-log key, created on first start and kept in the database (keys in the
 * key store). Issues, renews and revokes certificates; answers CRL, OCSP and RFC 3161 requests.
 */
import { X509Certificate } from 'node:crypto';
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import {
  buildCrl,
  answerTimeStampReq,
  buildOcspResponse,
  makeLocalTimestamper,
  describeCertificate,
  issueCertificate,
  readCertificateIdentity,
  readCertificateSerial,
  matchesIssuer,
  newSerialNumber,
  ocspErrorResponse,
  OcspError,
  parseOcspRequest,
  type CertificateProfile,
  type CmsSigner,
  type KeyAlgorithm,
  type KeyHandle,
  type KeyStore,
  type OcspHashAlgorithm,
  type RevocationReason,
  type SubjectSpec,
  type TrustStore,
  TSA_POLICY_OID,
} from '@openseal/pki';
import * as repo from './pki.repository';
import type { AuthorityName, AuthorityRow, CertificateRow } from './pki.repository';
import { listEnabledAnchorDers } from './trust-anchors.repository';

const DAY = 86_400_000;
/** Renewal opens this long before expiry (spec section 9). */
export const RENEWAL_WINDOW_DAYS = 30;
export const CRL_LIFETIME_MS = DAY;
const CRL_CACHE_MS = 60_000;
/** Operator-added anchors are read again after this long, so instances agree within it (as the config cache). */
export const TRUST_ANCHOR_CACHE_MS = 5_000;

/** Certificates of one document looked up together at most; more are looked up one by one. */
const PREFETCH_MAX = 256;

type StateRow = Pick<CertificateRow, 'status' | 'revoked_at' | 'revocation_reason'>;

function stateOf(row: StateRow | undefined): RevocationState {
  if (!row) return { status: 'unknown' };
  if (row.status === 'good') return { status: 'good' };
  return {
    status: row.status,
    revokedAt: row.revoked_at!,
    reason: row.revocation_reason as RevocationReason,
  };
}

/** A revocation state as the verifier takes it: nothing for a certificate the platform does not know. */
function verifierAnswer(state: RevocationState) {
  if (state.status === 'unknown') return undefined;
  return state.status === 'good'
    ? { status: 'good' as const, source: 'online' as const }
    : {
        status: 'revoked' as const,
        source: 'online' as const,
        revokedAt: state.revokedAt,
        reason: state.reason,
      };
}

export type EndEntityProfile = Extract<CertificateProfile, 'org-seal' | 'person-seal' | 'person'>;

export interface IssueInput {
  profile: EndEntityProfile;
  subject: SubjectSpec;
  owner: { type: 'organization' | 'person' | 'platform'; id: string };
  sealCode?: string;
  algorithm?: KeyAlgorithm;
  notBefore?: Date;
  notAfter?: Date;
  renewedFrom?: string;
  /**
   * DER SubjectPublicKeyInfo of a key generated elsewhere (on a UKey): the certificate is issued for it
   * and no platform key is generated.
   */
  publicKeySpki?: Uint8Array;
}

export interface IssuedSealCertificate {
  serial: string;
  der: Uint8Array;
  /** Null when the key is held outside the platform (`publicKeySpki`). */
  keyId: string | null;
  notBefore: Date;
  notAfter: Date;
}

export type RevocationState =
  | { status: 'good' }
  | { status: 'unknown' }
  | { status: 'revoked' | 'hold'; revokedAt: Date; reason: RevocationReason };

interface Authority {
  name: AuthorityName;
  certificate: Uint8Array;
  key: KeyHandle;
}

export interface PkiUrls {
  ca(name: 'root' | 'issuing'): string;
  crl(name: 'root' | 'issuing'): string;
  ocsp: string;
  tsa: string;
}

export function pkiUrls(publicUrl: string): PkiUrls {
  return {
    ca: (name) => `${publicUrl}/pki/ca/${name}.cer`,
    crl: (name) => `${publicUrl}/pki/crl/${name}.crl`,
    ocsp: `${publicUrl}/pki/ocsp`,
    tsa: `${publicUrl}/pki/tsa`,
  };
}

export function createPkiService(deps: {
  db: Db;
  keys: KeyStore;
  algorithm: KeyAlgorithm;
  publicUrl: string;
  /** Extra anchors the verifier trusts besides the platform root (DER). */
  extraAnchors?: Uint8Array[];
  log: { info(o: object, msg: string): void };
  /** Called before a certificate status or the set of anchors changes (copies of them go stale). */
  onTrustChange?: () => void;
}) {
  const { db, keys } = deps;
  const urls = pkiUrls(deps.publicUrl);
  const authorities = new Map<AuthorityName, Authority>();
  let evidenceKey: KeyHandle | undefined;
  const crlCache = new Map<string, { at: number; der: Uint8Array }>();
  let operatorAnchors: { at: number; ders: Promise<Uint8Array[]> } | null = null;

  function authority(name: Exclude<AuthorityName, 'evidence'>): Authority {
    const a = authorities.get(name);
    if (!a) throw new Error(`PKI not started: no ${name} authority`);
    return a;
  }

  async function createAuthority(name: AuthorityName): Promise<void> {
    const key = await keys.generate(deps.algorithm, `openseal-${name}`);
    let certificate: Uint8Array | null = null;
    let serial: string | null = null;
    if (name !== 'evidence') {
      const profile: CertificateProfile =
        name === 'root'
          ? 'root-ca'
          : name === 'issuing'
            ? 'issuing-ca'
            : name === 'ocsp'
              ? 'ocsp-signer'
              : 'tsa';
      const commonName = {
        root: 'OpenSeal Root CA',
        issuing: 'OpenSeal Issuing CA',
        ocsp: 'OpenSeal OCSP Responder',
        tsa: 'OpenSeal Timestamp Unit',
      }[name];
      const issuer =
        name === 'root' ? { selfSigned: key } : issuerFor(name === 'issuing' ? 'root' : 'issuing');
      const issued = await issueCertificate({
        profile,
        subject: { commonName, organization: 'OpenSeal', country: 'CN' },
        publicKeySpki: key.publicKeySpki,
        issuer,
        urls: name === 'root' ? undefined : caUrls(name === 'issuing' ? 'root' : 'issuing'),
      });
      certificate = issued.der;
      serial = issued.serialHex;
    }
    const won = await repo.insertAuthority(db, { name, key_id: key.id, certificate, serial });
    if (won)
      deps.log.info({ authority: name, keyId: key.id, store: keys.kind }, 'created platform authority');
  }

  function issuerFor(name: 'root' | 'issuing') {
    const a = authority(name);
    return { certificate: a.certificate, key: a.key };
  }

  function caUrls(issuer: 'root' | 'issuing') {
    return { crl: urls.crl(issuer), ocsp: urls.ocsp, caIssuers: urls.ca(issuer) };
  }

  async function loadOne(row: AuthorityRow): Promise<void> {
    const key = await keys.load(row.key_id);
    if (row.name === 'evidence') evidenceKey = key;
    else authorities.set(row.name, { name: row.name, certificate: row.certificate!, key });
  }

  /** Creates what is missing, in dependency order; instances starting at once agree on the first set written. */
  async function start(): Promise<void> {
    for (const name of ['root', 'issuing', 'ocsp', 'tsa', 'evidence'] as const) {
      const find = async () => (await repo.listAuthorities(db)).find((r) => r.name === name);
      let row = await find();
      if (!row) {
        await createAuthority(name);
        row = await find();
      }
      await loadOne(row!);
    }
  }

  /** The anchors trusted without an operator: the platform root, then TRUST_LIST's. */
  function builtInAnchors(): Array<{ source: 'platform' | 'trustList'; der: Uint8Array }> {
    return [
      { source: 'platform' as const, der: authority('root').certificate },
      ...(deps.extraAnchors ?? []).map((der) => ({ source: 'trustList' as const, der })),
    ];
  }

  /** Enabled operator-added anchors, read at most every TRUST_ANCHOR_CACHE_MS. */
  function enabledOperatorAnchors(): Promise<Uint8Array[]> {
    const now = Date.now();
    if (!operatorAnchors || now - operatorAnchors.at >= TRUST_ANCHOR_CACHE_MS) {
      const ders = listEnabledAnchorDers(db);
      operatorAnchors = { at: now, ders };
      // A failed read is not kept: the next caller asks the database again.
      ders.catch(() => {
        if (operatorAnchors?.ders === ders) operatorAnchors = null;
      });
    }
    return operatorAnchors.ders;
  }

  /**
   * What the verifier trusts: the platform root, TRUST_LIST and the enabled operator-added anchors (other
   * platforms' roots), with the issuing CA as an intermediate.
   */
  async function trustStore(): Promise<TrustStore> {
    return {
      anchors: [...builtInAnchors().map((a) => a.der), ...(await enabledOperatorAnchors())],
      intermediates: [authority('issuing').certificate],
    };
  }

  /** After an anchor changes here; other instances see the change within TRUST_ANCHOR_CACHE_MS. */
  function invalidateTrustStore(): void {
    deps.onTrustChange?.();
    operatorAnchors = null;
  }

  async function issue(tx: Db, input: IssueInput): Promise<IssuedSealCertificate> {
    const key = input.publicKeySpki
      ? { id: null, publicKeySpki: input.publicKeySpki }
      : await keys.generate(input.algorithm ?? deps.algorithm, input.sealCode ?? input.owner.id);
    const notBefore = input.notBefore ?? new Date();
    // One year (spec section 9) unless the caller says otherwise.
    const notAfter = input.notAfter ?? new Date(notBefore.getTime() + 365 * DAY);
    for (let attempt = 0; ; attempt++) {
      const issued = await issueCertificate({
        profile: input.profile,
        subject: input.subject,
        publicKeySpki: key.publicKeySpki,
        issuer: issuerFor('issuing'),
        notBefore,
        notAfter,
        serial: newSerialNumber(),
        urls: caUrls('issuing'),
      });
      const summary = describeCertificate(issued.der);
      try {
        await repo.insertCertificate(tx, {
          serial: issued.serialHex,
          issuer: 'issuing',
          profile: input.profile,
          subject: summary.subject,
          subject_spec: JSON.stringify(input.subject),
          common_name: summary.commonName ?? input.subject.commonName,
          der: issued.der,
          key_id: key.id,
          not_before: issued.notBefore,
          not_after: issued.notAfter,
          owner_type: input.owner.type,
          owner_id: input.owner.id,
          seal_code: input.sealCode ?? null,
          renewed_from: input.renewedFrom ?? null,
        });
      } catch (err) {
        // 128 random bits collide never in practice; if they do, draw again rather than fail.
        if (attempt < 2 && (err as { code?: string }).code === '23505') continue;
        throw err;
      }
      return {
        serial: issued.serialHex,
        der: issued.der,
        keyId: key.id,
        notBefore: issued.notBefore,
        notAfter: issued.notAfter,
      };
    }
  }

  async function certificate(tx: Db, serial: string): Promise<CertificateRow> {
    const row = await repo.findCertificate(tx, serial.toLowerCase());
    if (!row) throw new AppError('cert.notFound');
    return row;
  }

  /** A new certificate for the same holder, one more year, only inside the renewal window. */
  async function renew(tx: Db, serial: string, now = new Date()): Promise<IssuedSealCertificate> {
    const old = await certificate(tx, serial);
    if (old.status !== 'good') throw new AppError('renewal.certInvalid');
    if (old.not_after.getTime() - now.getTime() > RENEWAL_WINDOW_DAYS * DAY)
      throw new AppError('renewal.notDue');
    const notBefore = now;
    const notAfter = new Date(Math.max(old.not_after.getTime(), now.getTime()) + 365 * DAY);
    return issue(tx, {
      profile: old.profile as EndEntityProfile,
      subject: JSON.parse(old.subject_spec) as SubjectSpec,
      owner: { type: old.owner_type, id: old.owner_id },
      sealCode: old.seal_code ?? undefined,
      notBefore,
      notAfter,
      renewedFrom: old.serial,
      // A UKey's certificate is renewed for the same key, still on the UKey.
      ...(old.key_id === null
        ? { publicKeySpki: new X509Certificate(old.der).publicKey.export({ format: 'der', type: 'spki' }) }
        : {}),
    });
  }

  async function changeStatus(
    tx: Db,
    serial: string,
    to: 'revoked' | 'hold' | 'good',
    reason: RevocationReason = 'unspecified',
  ): Promise<void> {
    const row = await certificate(tx, serial);
    deps.onTrustChange?.();
    const from: Array<'good' | 'hold'> =
      to === 'good' ? ['hold'] : to === 'hold' ? ['good'] : ['good', 'hold'];
    const changed = await repo.updateCertificateStatus(
      tx,
      row.serial,
      to === 'good'
        ? { status: 'good', revokedAt: null, reason: null }
        : { status: to, revokedAt: new Date(), reason: to === 'hold' ? 'certificateHold' : reason },
      from,
    );
    if (!changed) throw new AppError('cert.statusChange');
    crlCache.clear();
  }

  async function revocationState(tx: Db, serialHex: string): Promise<RevocationState> {
    return stateOf(await repo.findCertificate(tx, serialHex.toLowerCase()));
  }

  async function crl(name: 'root' | 'issuing'): Promise<Uint8Array> {
    const cached = crlCache.get(name);
    if (cached && Date.now() - cached.at < CRL_CACHE_MS) return cached.der;
    const rows = await repo.listNotGood(db, name);
    const thisUpdate = new Date();
    const der = await buildCrl({
      issuer: issuerFor(name),
      thisUpdate,
      nextUpdate: new Date(thisUpdate.getTime() + CRL_LIFETIME_MS),
      crlNumber: await repo.nextCrlNumber(db, name),
      revoked: rows.map((r) => ({
        serialHex: r.serial,
        revokedAt: r.revoked_at ?? thisUpdate,
        reason: (r.revocation_reason ?? 'unspecified') as RevocationReason,
      })),
    });
    crlCache.set(name, { at: Date.now(), der });
    return der;
  }

  /** RFC 6960 responder for certificates of the issuing CA; never throws, answers an OCSP error instead. */
  async function ocsp(request: Uint8Array): Promise<Uint8Array> {
    let parsed: ReturnType<typeof parseOcspRequest>;
    try {
      parsed = parseOcspRequest(request);
    } catch (err) {
      return ocspErrorResponse(err instanceof OcspError ? err.status : 'malformedRequest');
    }
    const issuing = authority('issuing').certificate;
    const thisUpdate = new Date();
    const nextUpdate = new Date(thisUpdate.getTime() + DAY);
    const answers = [];
    for (const r of parsed.requests) {
      const state = matchesIssuer(r, issuing)
        ? await revocationState(db, r.serialHex)
        : { status: 'unknown' as const };
      answers.push({
        serialHex: r.serialHex,
        hashAlgorithm: r.hashAlgorithm as OcspHashAlgorithm,
        thisUpdate,
        nextUpdate,
        status:
          state.status === 'good' || state.status === 'unknown'
            ? state.status
            : { revokedAt: state.revokedAt, reason: state.reason },
      });
    }
    const responder = authority('ocsp');
    return buildOcspResponse({
      responder: { certificate: responder.certificate, key: responder.key },
      issuerCertificate: issuing,
      answers,
      nonce: parsed.nonce,
    });
  }

  function tsaSigner(): CmsSigner {
    const tsa = authority('tsa');
    return { certificate: tsa.certificate, chain: [authority('issuing').certificate], key: tsa.key };
  }

  /** RFC 3161 timestamp unit; a malformed or unacceptable request gets a rejection, never a throw. */
  async function timestamp(request: Uint8Array): Promise<Uint8Array> {
    return answerTimeStampReq(request, {
      tsa: tsaSigner(),
      serialNumber: newSerialNumber(),
      genTime: new Date(),
      policy: TSA_POLICY_OID,
      accuracyMillis: 1000,
    });
  }

  /** A timestamp token over `data` from the platform's own unit, without a network round trip. */
  const timestampToken = (data: Uint8Array) =>
    makeLocalTimestamper({
      tsa: tsaSigner(),
      serialNumber: newSerialNumber,
      policy: TSA_POLICY_OID,
      accuracyMillis: 1000,
    })(data);

  /** The signer of a certificate, refused unless the certificate is good and in its validity period. */
  async function signer(tx: Db, serial: string, at = new Date()): Promise<CmsSigner> {
    return signerOf(await certificate(tx, serial), at);
  }

  /** The signer of a certificate row the caller read already (with the seal it signs for, say). */
  async function signerOf(
    row: Pick<CertificateRow, 'der' | 'key_id' | 'status' | 'not_before' | 'not_after'>,
    at = new Date(),
  ): Promise<CmsSigner> {
    if (row.status !== 'good' || at < row.not_before || at > row.not_after)
      throw new AppError('cert.notUsable');
    // The key of a UKey certificate is on the UKey: the platform cannot sign with it.
    if (row.key_id === null) throw new AppError('cert.notUsable', { details: { reason: 'keyOnUkey' } });
    return {
      certificate: row.der,
      chain: [authority('issuing').certificate],
      key: await keys.load(row.key_id),
    };
  }

  /** Revocation data for a PAdES B-LT DSS: the certificates, an OCSP answer for the signer, the CRLs. */
  async function validationData(tx: Db, serial: string) {
    const row = await certificate(tx, serial);
    const issuing = authority('issuing');
    const state = await revocationState(tx, row.serial);
    const now = new Date();
    const ocspResponse = await buildOcspResponse({
      responder: { certificate: authority('ocsp').certificate, key: authority('ocsp').key },
      issuerCertificate: issuing.certificate,
      answers: [
        {
          serialHex: row.serial,
          thisUpdate: now,
          nextUpdate: new Date(now.getTime() + DAY),
          status:
            state.status === 'good' || state.status === 'unknown'
              ? state.status
              : { revokedAt: state.revokedAt, reason: state.reason },
        },
      ],
    });
    return {
      certificates: [
        row.der,
        issuing.certificate,
        authority('root').certificate,
        authority('ocsp').certificate,
      ],
      ocspResponses: [ocspResponse],
      crls: [await crl('issuing'), await crl('root')],
    };
  }

  /** The serial of a certificate of the issuing CA, or null for anyone else's (or unreadable bytes). */
  function ownSerial(cert: Uint8Array, issuer: Uint8Array): string | null {
    if (Buffer.compare(Buffer.from(issuer), Buffer.from(authority('issuing').certificate)) !== 0) return null;
    try {
      return readCertificateSerial(cert).toLowerCase();
    } catch {
      return null;
    }
  }

  /** For the verifier: the platform's own answer about a certificate it issued. */
  async function checkRevocation(cert: Uint8Array, issuer: Uint8Array) {
    const serial = ownSerial(cert, issuer);
    return serial === null ? undefined : verifierAnswer(await revocationState(db, serial));
  }

  /**
   * checkRevocation for one verification, with a prefetch the verifier calls first with every
   * certificate the document carries: the states of those the issuing CA issued are read in one query,
   * and later answers come from it (read during this verification, so a revocation made before it is
   * seen). A certificate the prefetch did not see is looked up on its own.
   */
  function revocationLookup() {
    const known = new Map<string, RevocationState>();
    return {
      async prefetchRevocation(certificates: Uint8Array[]): Promise<void> {
        const issuingSubject = readCertificateIdentity(authority('issuing').certificate).subject;
        const serials = new Set<string>();
        for (const der of certificates.slice(0, PREFETCH_MAX)) {
          try {
            const id = readCertificateIdentity(der);
            if (Buffer.compare(Buffer.from(id.issuer), Buffer.from(issuingSubject)) === 0)
              serials.add(id.serialHex.toLowerCase());
          } catch {
            // not a certificate: nothing to look up
          }
        }
        const rows = await repo.findCertificateStates(db, [...serials]);
        for (const serial of serials) known.set(serial, { status: 'unknown' });
        for (const row of rows) known.set(row.serial, stateOf(row));
      },
      async checkRevocation(cert: Uint8Array, issuer: Uint8Array) {
        const serial = ownSerial(cert, issuer);
        if (serial === null) return undefined;
        return verifierAnswer(known.get(serial) ?? (await revocationState(db, serial)));
      },
    };
  }

  function caCertificate(name: string): Uint8Array | undefined {
    return authorities.get(name as AuthorityName)?.certificate;
  }

  return {
    start,
    urls,
    trustStore,
    builtInAnchors,
    invalidateTrustStore,
    caCertificate,
    issue,
    renew,
    revoke: (tx: Db, serial: string, reason: RevocationReason = 'unspecified') =>
      changeStatus(tx, serial, 'revoked', reason),
    hold: (tx: Db, serial: string) => changeStatus(tx, serial, 'hold'),
    release: (tx: Db, serial: string) => changeStatus(tx, serial, 'good'),
    revocationState,
    certificate,
    crl,
    ocsp,
    timestamp,
    timestampToken,
    signer,
    signerOf,
    validationData,
    checkRevocation,
    revocationLookup,
    /** The key that signs evidence-log tree heads. */
    evidenceKey(): KeyHandle {
      if (!evidenceKey) throw new Error('PKI not started: no evidence key');
      return evidenceKey;
    },
  };
}

export type PkiService = ReturnType<typeof createPkiService>;
