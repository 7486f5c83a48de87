import { describe, expect, it } from 'vitest';
import { LruCache } from '../util/lru';
import { makeTestPki, ORG_SEAL_SUBJECT } from '../util/test-support';
import { describeCertificate, describeCertificateCached } from './describe';

describe('certificate summaries, parsed once', () => {
  it('answers what describeCertificate answers, and a caller changing its copy changes nothing', async () => {
    const pki = await makeTestPki('EC-P256');
    const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
    const fresh = describeCertificate(leaf.der);
    const first = describeCertificateCached(leaf.der);
    expect(first).toEqual(fresh);
    first.commonName = 'changed';
    first.crlUrls.push('http://changed.example');
    first.notAfter.setTime(0);
    expect(describeCertificateCached(leaf.der)).toEqual(fresh);
    // Another certificate gets its own summary.
    expect(describeCertificateCached(pki.root.der).fingerprintSha256).toBe(
      describeCertificate(pki.root.der).fingerprintSha256,
    );
  });

  it('keeps the most recently used entries within its bound', () => {
    const lru = new LruCache<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c'].entries()) lru.set(k, i);
    expect(lru.get('a')).toBe(0); // a is now the most recent: b goes first
    lru.set('d', 3);
    expect(lru.size).toBe(3);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([0, 2, 3]);
    lru.set('c', 20); // an update counts as a use
    lru.set('e', 4);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('c')).toBe(20);
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
