import { readOfdPackage, type OfdMeta, type OfdPageInfo, type OfdSignatureInfo } from './document';
import { renderPage, type RenderOptions } from './render-svg';
import { verifyOfdSignatures, type OfdSignatureCheck, type OfdVerifyOptions } from './verify';
import type { OfdLimits } from './zip-package';

export { OfdError, type OfdErrorReason } from './errors';
export type { Box, OfdMeta, OfdPageInfo, OfdSignatureInfo, OfdStamp } from './document';
export type { SealPicture } from './seal-picture';
export type { OfdLimits } from './zip-package';
export { XML_LIMITS, type XmlLimits } from './xml';
export type { RenderOptions } from './render-svg';
export { expandDeltas, pathData } from './render-svg';
export { OFD_FINDINGS } from './verify';
export type {
  OfdCertificateInfo,
  OfdProblem,
  OfdReason,
  OfdSignatureCheck,
  OfdVerdict,
  OfdVerifyOptions,
} from './verify';
export { fromPem } from './pem';

/** An opened OFD document: its pages and signatures, and each page drawn as SVG on demand. */
export interface OfdDocument {
  meta: OfdMeta;
  pages: OfdPageInfo[];
  signatures: OfdSignatureInfo[];
  /** Parts the document names but the package lacks; the pages are drawn without them. */
  warnings: string[];
  /** One page (0-based) as a standalone SVG document sized in millimetres. */
  renderPageSvg(index: number, options?: RenderOptions): string;
  /**
   * Checks every signature: the parts it covers, its signed value, its signer's key, and the signer's
   * certificate against the trust anchors given (see verify.ts). Without anchors no signature is valid.
   */
  verifySignatures(options?: OfdVerifyOptions): Promise<OfdSignatureCheck[]>;
}

/**
 * Opens an OFD package (GB/T 33190) from its bytes. Throws `OfdError` when the bytes are not an OFD or its
 * structure is broken, so it doubles as the structure check of uploads.
 */
export function readOfd(bytes: Uint8Array, limits?: OfdLimits): OfdDocument {
  const doc = readOfdPackage(bytes, limits);
  return {
    meta: doc.meta,
    pages: doc.pages,
    signatures: doc.signatures,
    warnings: doc.warnings,
    renderPageSvg: (index, options) => renderPage(doc, index, options),
    verifySignatures: (options) => verifyOfdSignatures(doc, options),
  };
}
