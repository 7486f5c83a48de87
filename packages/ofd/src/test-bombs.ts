import { strToU8, unzipSync, zipSync } from 'fflate';
import { buildOfd, NS } from './test-ofd';

/**
 * Packages built to exhaust a reader: each a valid test package (see `buildOfd`) but for its crafted
 * `Doc_0/Document.xml`, deflated at the highest level so it stays small. Shared by the reader's tests
 * and the server's upload tests.
 */
function withDocument(documentXml: string): Uint8Array {
  const parts: Record<string, Uint8Array> = unzipSync(buildOfd());
  parts['Doc_0/Document.xml'] = strToU8(documentXml);
  return zipSync(parts, { level: 9 });
}

/** `Document.xml` nesting `depth` elements one inside the other (a million: 7 MB of XML, 7 KB zipped). */
export function deepNestingOfd(depth = 1_000_000): Uint8Array {
  return withDocument(`<ofd:Document ${NS}>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</ofd:Document>`);
}

/** `Document.xml` with `count` sibling elements of one attribute each: flat, but as costly to build. */
export function manyNodesOfd(count = 1_000_000): Uint8Array {
  return withDocument(`<ofd:Document ${NS}>${'<a b="1"/>'.repeat(count)}</ofd:Document>`);
}

/** The "billion laughs": ten levels of entities, each ten of the level below, used in the document. */
export function entityExpansionOfd(): Uint8Array {
  const levels = Array.from({ length: 10 }, (_, i) =>
    i === 0 ? '<!ENTITY l0 "lol">' : `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`,
  ).join('');
  return withDocument(
    `<?xml version="1.0"?><!DOCTYPE ofd:Document [${levels}]><ofd:Document ${NS}><ofd:CommonData>&l9;</ofd:CommonData></ofd:Document>`,
  );
}
