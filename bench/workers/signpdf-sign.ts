/**
 * The comparison pipeline other open-source platforms ship: pdf-lib loads the whole document, adds a
 * signature placeholder and saves (rewriting the file), then @signpdf signs with a P12 through node-forge.
 * Run in its own process so its peak memory is its own. argv: IN OUT P12 → one JSON line on stdout.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import signpdfModule from '@signpdf/signpdf';

// The package is CommonJS with its instance on `default`; under ESM interop it arrives one level deeper.
const signpdf = (signpdfModule as unknown as { default?: typeof signpdfModule }).default ?? signpdfModule;
import { measure } from './measure';

const [input, output, p12] = process.argv.slice(2) as [string, string, string];
const signer = new P12Signer(readFileSync(p12), { passphrase: 'bench' });

await measure(async () => {
  const pdfDoc = await PDFDocument.load(readFileSync(input));
  pdflibAddPlaceholder({
    pdfDoc,
    reason: 'bench',
    contactInfo: 'bench@example.com',
    name: 'Bench',
    location: 'Hangzhou',
    signatureLength: 16384,
  });
  const withPlaceholder = Buffer.from(await pdfDoc.save({ useObjectStreams: false }));
  const signed = await signpdf.sign(withPlaceholder, signer);
  writeFileSync(output, signed);
});
