import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { makeExtension } from '../util/certificate';
import { OID } from '../util/oids';
import { KEY_USAGE_BIT, type KeyUsageName, type ProfileRules } from './profiles';

export interface CertificateUrls {
  crl?: string;
  ocsp?: string;
  caIssuers?: string;
}

/** KeyUsage as a DER named BIT STRING: trailing zero bits dropped and counted as unused. */
function keyUsageValue(usages: KeyUsageName[]): asn1js.BitString {
  let bits = 0;
  for (const u of usages) bits |= 0x80 >> KEY_USAGE_BIT[u];
  let unused = 0;
  while (unused < 7 && !((bits >> unused) & 1)) unused++;
  return new asn1js.BitString({ valueHex: Uint8Array.of(bits), unusedBits: unused });
}

function uri(value: string): pkijs.GeneralName {
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(value) || !/^[\x20-\x7e]+$/.test(value)) {
    throw new TypeError(`not an ASCII URI: ${value}`);
  }
  return new pkijs.GeneralName({ type: 6, value });
}

export interface ExtensionInputs {
  rules: ProfileRules;
  subjectKeyId: Uint8Array;
  authorityKeyId: Uint8Array;
  urls: CertificateUrls;
}

/** The extensions a profile puts in a certificate, in a stable order. */
export function buildExtensions({
  rules,
  subjectKeyId,
  authorityKeyId,
  urls,
}: ExtensionInputs): pkijs.Extension[] {
  const out: pkijs.Extension[] = [];
  const basic = rules.ca
    ? new pkijs.BasicConstraints(
        rules.pathLength === undefined ? { cA: true } : { cA: true, pathLenConstraint: rules.pathLength },
      )
    : new pkijs.BasicConstraints({ cA: false });
  out.push(makeExtension(OID.basicConstraints, true, basic.toSchema()));
  out.push(makeExtension(OID.keyUsage, true, keyUsageValue(rules.keyUsage)));
  if (rules.extendedKeyUsage) {
    const eku = new pkijs.ExtKeyUsage({ keyPurposes: rules.extendedKeyUsage.purposes });
    out.push(makeExtension(OID.extKeyUsage, rules.extendedKeyUsage.critical, eku.toSchema()));
  }
  out.push(
    makeExtension(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: subjectKeyId })),
  );
  const aki = new pkijs.AuthorityKeyIdentifier({
    keyIdentifier: new asn1js.OctetString({ valueHex: authorityKeyId }),
  });
  out.push(makeExtension(OID.authorityKeyIdentifier, false, aki.toSchema()));
  if (rules.policies.length > 0) {
    const policies = new pkijs.CertificatePolicies({
      certificatePolicies: rules.policies.map(
        (policyIdentifier) => new pkijs.PolicyInformation({ policyIdentifier }),
      ),
    });
    out.push(makeExtension(OID.certificatePolicies, false, policies.toSchema()));
  }
  if (!rules.selfSigned && urls.crl) {
    const cdp = new pkijs.CRLDistributionPoints({
      distributionPoints: [new pkijs.DistributionPoint({ distributionPoint: [uri(urls.crl)] })],
    });
    out.push(makeExtension(OID.crlDistributionPoints, false, cdp.toSchema()));
  }
  if (!rules.selfSigned && (urls.ocsp || urls.caIssuers)) {
    const descriptions: pkijs.AccessDescription[] = [];
    if (urls.ocsp)
      descriptions.push(
        new pkijs.AccessDescription({ accessMethod: OID.adOcsp, accessLocation: uri(urls.ocsp) }),
      );
    if (urls.caIssuers) {
      descriptions.push(
        new pkijs.AccessDescription({ accessMethod: OID.adCaIssuers, accessLocation: uri(urls.caIssuers) }),
      );
    }
    const aia = new pkijs.InfoAccess({ accessDescriptions: descriptions });
    out.push(makeExtension(OID.authorityInfoAccess, false, aia.toSchema()));
  }
  if (rules.ocspNoCheck) out.push(makeExtension(OID.ocspNoCheck, false, new asn1js.Null()));
  return out;
}
