import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { publicIdsOf } from '../../../src/server/domain/publicIds.js';

describe('public ids (issue 25 finding 6)', () => {
  const ids = publicIdsOf(randomBytes(32));

  it('are a permutation: every stored id comes back from its public id, and no two share one', () => {
    const shown = new Set<number>();
    for (let id = 1; id <= 2000; id += 1) {
      const publicId = ids.subscription.toPublic(id);
      expect(ids.subscription.toStored(publicId)).to.equal(id);
      shown.add(publicId);
    }
    expect(shown.size).to.equal(2000);
  });

  it('answer a remembered id as the first time, past the codec memory too (65,536 ids)', () => {
    const first = Array.from({ length: 70_000 }, (_, index) => ids.learner.toPublic(index + 1));
    expect(ids.learner.toPublic(1)).to.equal(first[0]);
    expect(ids.learner.toPublic(70_000)).to.equal(first.at(-1));
    expect(ids.learner.toStored(first[12_345]!)).to.equal(12_346);
  });

  it('differ by kind, keep 0 as none, and refuse a stored id beyond them', () => {
    expect(ids.contact.toPublic(7)).to.not.equal(ids.billingContact.toPublic(7));
    expect(ids.contact.toPublic(0)).to.equal(0);
    expect(() => ids.contact.toPublic(2 ** 31)).to.throw(RangeError);
    expect(ids.contact.toStored(-1)).to.equal(undefined);
  });
});
