import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from '../util/oids';
import type { CertificateProfile } from './profiles';

export interface SubjectSpec {
  commonName: string;
  organization?: string;
  organizationalUnit?: string;
  /** Unified social credit code (USCC) of the organisation, in 2.5.4.97. */
  organizationIdentifier?: string;
  /** 2.5.4.5: for persons, a hash of the ID number computed by the caller (never the number itself). */
  serialNumber?: string;
  /** ISO 3166 alpha-2; defaults to CN. */
  country?: string;
}

const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

function rdn(type: string, value: asn1js.BaseBlock): asn1js.Set {
  return new asn1js.Set({
    value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), value] })],
  });
}

function printable(what: string, value: string): asn1js.PrintableString {
  if (!PRINTABLE.test(value)) throw new TypeError(`${what} must use PrintableString characters: ${value}`);
  return new asn1js.PrintableString({ value });
}

function text(what: string, value: string | undefined, max: number): asn1js.Utf8String | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed.length === 0 || [...trimmed].length > max)
    throw new TypeError(`${what} must be 1-${max} characters`);
  return new asn1js.Utf8String({ value: trimmed });
}

/** Checks the subject has what its profile promises relying parties. */
export function checkSubjectForProfile(profile: CertificateProfile, subject: SubjectSpec): void {
  if (profile === 'org-seal' && (!subject.organization || !subject.organizationIdentifier)) {
    throw new TypeError('an org-seal subject needs organization and organizationIdentifier (USCC)');
  }
  if ((profile === 'person-seal' || profile === 'person') && !subject.serialNumber) {
    throw new TypeError(`a ${profile} subject needs serialNumber (hash of the ID number)`);
  }
}

/**
 * A DER Name with one attribute per RDN, ordered C, O, OU, organizationIdentifier, serialNumber, CN.
 * Names are UTF8String (RFC 5280 §4.1.2.6) so Chinese survives; C and serialNumber are
 * PrintableString as X.520 requires. Upper bounds follow RFC 5280 Appendix A.
 */
export function buildName(subject: SubjectSpec): pkijs.RelativeDistinguishedNames {
  const country = subject.country ?? 'CN';
  if (!/^[A-Z]{2}$/.test(country)) throw new TypeError(`country must be two capital letters: ${country}`);
  const sets: asn1js.Set[] = [rdn(OID.country, printable('country', country))];
  const push = (type: string, value: asn1js.BaseBlock | undefined) => {
    if (value) sets.push(rdn(type, value));
  };
  push(OID.organization, text('organization', subject.organization, 64));
  push(OID.organizationalUnit, text('organizationalUnit', subject.organizationalUnit, 64));
  push(OID.organizationIdentifier, text('organizationIdentifier', subject.organizationIdentifier, 64));
  if (subject.serialNumber !== undefined) {
    if (subject.serialNumber.length === 0 || subject.serialNumber.length > 64) {
      throw new TypeError('serialNumber must be 1-64 characters');
    }
    push(OID.serialNumber, printable('serialNumber', subject.serialNumber));
  }
  push(OID.commonName, text('commonName', subject.commonName, 64));
  const der = new asn1js.Sequence({ value: sets }).toBER();
  // Parse back so pkijs keeps these exact bytes (its own encoder would merge all attributes into one RDN).
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(der).result });
}
