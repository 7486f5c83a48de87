/** Why a package is not an OFD this reader can open. */
export type OfdErrorReason =
  | 'notZip'
  | 'noOfdXml'
  | 'tooLarge'
  /** An XML part over the limits on nesting depth or nodes, or one that declares a DTD (entities). */
  | 'tooComplex'
  | 'badXml'
  | 'noDocument'
  | 'noPages'
  | 'missingPart'
  | 'badPage';

export class OfdError extends Error {
  constructor(
    readonly reason: OfdErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'OfdError';
  }
}
