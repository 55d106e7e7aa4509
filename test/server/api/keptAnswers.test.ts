/** The answers kept between their changes (issue 47): by version and time, within their bytes. */
import { expect } from 'chai';
import { keptAnswers } from '../../../src/server/api/keptAnswers.js';

describe('server/api keptAnswers', () => {
  const body = (text: string) => Buffer.from(text);

  it('answers a kept body only while its version stands and before its end, and never keeps one already ended', () => {
    const kept = keptAnswers<number>(1024);
    const end = Date.now() + 60_000;
    expect(kept.has(1)).to.equal(false);
    kept.keep(1, { version: '7', validUntil: end, body: body('[1]') });
    expect(kept.has(1)).to.equal(true);
    expect(kept.current(1, '7', end - 1)?.body.toString()).to.equal('[1]');
    expect(kept.current(1, '8', end - 1)).to.equal(undefined);
    expect(kept.current(1, '7', end)).to.equal(undefined);
    expect(kept.current(2, '7', 0)).to.equal(undefined);
    expect(kept.keep(3, { version: '1', validUntil: 0, body: body('[]') }).body.toString()).to.equal('[]');
    expect(kept.has(3)).to.equal(false);
  });

  it('keeps at most its bytes, the least recently used dropped first, and never one answer larger than them', () => {
    const kept = keptAnswers<number>(10);
    const keep = (key: number, text: string) => kept.keep(key, { version: '1', validUntil: Infinity, body: body(text) });
    keep(1, '1234');
    keep(2, '5678');
    expect(kept.current(1, '1', 0)?.body.toString()).to.equal('1234'); // 1 used last
    keep(3, '9012');
    expect([1, 2, 3].map((key) => kept.has(key))).to.deep.equal([true, false, true]);
    keep(4, '12345678901');
    expect(kept.has(4)).to.equal(false);
  });

  it('keeps nothing at 0 bytes (LIST_CACHE_MB=0)', () => {
    const kept = keptAnswers<number>(0);
    kept.keep(1, { version: '1', validUntil: Infinity, body: body('[]') });
    expect(kept.has(1)).to.equal(false);
    expect(kept.current(1, '1', 0)).to.equal(undefined);
  });
});
