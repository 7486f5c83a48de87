import { allowsFormFilling, isSupportedHandler } from './crypt';
import { PdfError } from './errors';
import type { PdfDocument } from './reader';

/**
 * Throws unless an incremental update can be written to `doc`: it is not encrypted, or it was opened
 * with the user or owner password of the standard security handler, whose key then encrypts the update.
 * `passwordGiven` tells a wrong password from a missing one.
 */
export function checkUpdatable(doc: PdfDocument, passwordGiven = false): void {
  if (!doc.encrypted || doc.security) return;
  const enc = doc.resolveDict(doc.trailer().get('Encrypt'));
  if (!enc || !isSupportedHandler(enc)) {
    const filter = enc?.getName('Filter') ?? 'unknown';
    throw new PdfError(
      'encrypted',
      `the PDF is encrypted with the ${filter} security handler, which OpenSeal cannot write; remove the encryption and sign the copy`,
    );
  }
  if (passwordGiven)
    throw new PdfError('wrong-password', 'the password given is neither the user nor the owner password');
  throw new PdfError('password-required', 'the PDF is protected by a password; give it to sign the file');
}

/**
 * Throws unless the document may be signed: not encrypted, or opened with a password, and its
 * permissions allow filling in form fields (ISO 32000-2 Table 22, bit 6, or bit 9 from revision 3),
 * which covers signing; the owner password lifts the permissions.
 */
export function checkSigningAllowed(doc: PdfDocument, passwordGiven = false): void {
  checkUpdatable(doc, passwordGiven);
  const handler = doc.security;
  if (handler && !allowsFormFilling(handler)) {
    throw new PdfError(
      'not-permitted',
      "the document's permissions do not allow filling in forms or signing; the owner password lifts them",
    );
  }
}
