import { expect } from 'chai';
import { formatDate } from '../../../src/client/engine/dates.js';

describe('date formats (SPEC section 9)', () => {
  it('writes yyyy-MM-dd in English', () => {
    expect(formatDate('2026-03-05', 'en')).to.equal('2026-03-05');
  });

  it('writes yyyy年M月d日 in Japanese, without leading zeros', () => {
    expect(formatDate('2026-03-05', 'ja')).to.equal('2026年3月5日');
  });
});
