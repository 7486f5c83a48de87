import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { OfdError, readOfd } from './index';
import { deepNestingOfd, entityExpansionOfd, manyNodesOfd } from './test-bombs';
import { buildOfd, NS, page } from './test-ofd';
import { parseXml, XmlBudget } from './xml';

function refusal(fn: () => unknown): OfdError {
  try {
    fn();
  } catch (err) {
    if (err instanceof OfdError) return err;
    throw err;
  }
  throw new Error('no error');
}

/** Runs `fn` and answers how long it took, in milliseconds. */
function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

describe('XML limits: parts are measured before they are parsed', () => {
  it('refuses a million nested elements (7 KB zipped) at the depth limit, at once and without the memory', () => {
    const bomb = deepNestingOfd();
    expect(bomb.length).toBeLessThan(16 * 1024);
    let err: OfdError | undefined;
    const heapBefore = process.memoryUsage().heapUsed;
    const ms = timed(() => (err = refusal(() => readOfd(bomb))));
    expect(err!.reason).toBe('tooComplex');
    expect(err!.message).toMatch(/Document\.xml: elements nested deeper than 256/);
    // Inflating and decoding 7 MB is all it costs: no DOM is built.
    expect(ms).toBeLessThan(2_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it('refuses a flat million elements at the node limit', () => {
    const err = refusal(() => readOfd(manyNodesOfd()));
    expect(err.reason).toBe('tooComplex');
    expect(err.message).toMatch(/more XML nodes than a document may hold/);
  });

  it('refuses a document type declaration, so no entity is ever expanded', () => {
    const err = refusal(() => readOfd(entityExpansionOfd()));
    expect(err.reason).toBe('tooComplex');
    expect(err.message).toMatch(/document type declaration/);
  });

  it('counts the nodes of all the parts of a package together, and the limits can be set', () => {
    const text = (n: number) =>
      `<ofd:TextObject ID="9" Boundary="0 0 10 10" Font="3" Size="5"><ofd:TextCode X="0" Y="5">${'字'.repeat(n)}</ofd:TextCode></ofd:TextObject>`;
    const ofd = buildOfd({ pages: [page(text(1)), page(text(1)), page(text(1))] });
    expect(readOfd(ofd).pages).toHaveLength(3);
    // Each page alone fits 60 nodes; the three pages and the document parts together do not.
    expect(refusal(() => readOfd(ofd, { xml: { maxNodes: 60 } })).reason).toBe('tooComplex');
    expect(readOfd(ofd, { xml: { maxNodes: 1000 } }).pages).toHaveLength(3);
    expect(refusal(() => readOfd(ofd, { xml: { maxDepth: 3 } })).message).toMatch(/deeper than 3/);
  });

  it('is not fooled by markup inside quoted values, comments, CDATA or processing instructions', () => {
    const budget = new XmlBudget({ maxDepth: 2, maxNodes: 100 });
    const root = parseXml(
      strToU8(
        `<?xml version="1.0"?><r a="b>c>d" c='>'><s e="/>"><!-- <x><x><x> --><![CDATA[<y><y><y>]]><?pi <z><z>?><k/></s></r>`,
      ),
      'part.xml',
      budget,
    );
    expect(root.localName).toBe('r');
    expect(() =>
      parseXml(strToU8('<r><s><t/></s></r>'), 'ok.xml', new XmlBudget({ maxDepth: 2 })),
    ).not.toThrow();
    expect(() =>
      parseXml(strToU8('<r><s><t></t></s></r>'), 'deep.xml', new XmlBudget({ maxDepth: 2 })),
    ).toThrow(/deeper than 2/);
  });

  it('leaves well-formedness to the parser: a broken part is still badXml', () => {
    const err = refusal(() => readOfd(buildOfd({ parts: { 'OFD.xml': `<ofd:OFD ${NS}><unclosed>` } })));
    expect(err.reason).toBe('badXml');
  });

  const corpus = join(import.meta.dirname, '../../../../shared/corpus/ofd');
  it.skipIf(!existsSync(corpus))(
    'opens every third-party package of the corpus within the default limits',
    () => {
      const files = readdirSync(corpus).filter((f) => f.endsWith('.ofd'));
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect(readOfd(readFileSync(join(corpus, f))).pages.length).toBeGreaterThan(0);
    },
  );
});
