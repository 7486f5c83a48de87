import * as asn1js from 'asn1js';
import type * as pkijs from 'pkijs';
import { toHex } from './bytes';
import { OID } from './oids';

const SHORT_NAMES: Record<string, string> = {
  [OID.commonName]: 'CN',
  [OID.serialNumber]: 'serialNumber',
  [OID.country]: 'C',
  [OID.locality]: 'L',
  [OID.stateOrProvince]: 'ST',
  [OID.organization]: 'O',
  [OID.organizationalUnit]: 'OU',
  [OID.organizationIdentifier]: 'organizationIdentifier',
  [OID.emailAddress]: 'emailAddress',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
  '2.5.4.9': 'STREET',
};

/** The text of a directory string, or undefined for values that are not strings. */
export function attributeText(value: unknown): string | undefined {
  if (value instanceof asn1js.BaseStringBlock) return value.getValue();
  return undefined;
}

function escapeRfc4514(text: string): string {
  return text
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, '\\ ');
}

/**
 * RFC 4514 string (most specific attribute first, e.g. `CN=Seal,O=Acme,C=CN`). Non-string values
 * are written as `#hex` of their DER.
 */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((atv) => {
      const key = SHORT_NAMES[atv.type] ?? atv.type;
      const text = attributeText(atv.value);
      const value = text === undefined ? `#${toHex(atv.value.toBER())}` : escapeRfc4514(text);
      return `${key}=${value}`;
    })
    .reverse()
    .join(',');
}

/** First value of attribute `oid` in the name. */
export function nameAttribute(name: pkijs.RelativeDistinguishedNames, oid: string): string | undefined {
  const atv = name.typesAndValues.find((a) => a.type === oid);
  return atv ? attributeText(atv.value) : undefined;
}
