/**
 * Single-sign-on domains (issue 45): what a domain is, which are free mail, and the one organisation that verifies a
 * contested domain when two verify at once (the unique index of verified domains decides; the loser is told 'taken').
 */
import { expect } from 'chai';
import { auditTrail } from '../../../src/server/domain/audit.js';
import { DEFAULT_FREE_MAIL_DOMAINS, isFreeMailDomain } from '../../../src/server/domain/freeMailDomains.js';
import { addDomain, normalizeDomain, verifyDomain, type TxtAnswer } from '../../../src/server/domain/ssoDomains.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

describe('Single-sign-on domains (issue 45)', () => {
  it('normalises a domain to lower-case ASCII (punycode for an IDN, no trailing dot) and refuses what is none', () => {
    expect(normalizeDomain(' Example.CO.JP. ')).to.equal('example.co.jp');
    expect(normalizeDomain('例え.テスト')).to.equal('xn--r8jz45g.xn--zckzah');
    expect(normalizeDomain('xn--r8jz45g.jp')).to.equal('xn--r8jz45g.jp');
    for (const wrong of ['', 'jp', 'a.1', '1.2.3.4', 'a..jp', '.a.jp', 'a-.jp', 'a_b.jp', 'a b.jp', 'a@b.jp', `${'a'.repeat(64)}.jp`, `${'a.'.repeat(127)}jp`]) {
      expect(normalizeDomain(wrong), wrong).to.equal(undefined);
    }
  });

  it('counts a free-mail domain and its subdomains as free mail, not a domain that merely ends alike', () => {
    expect(isFreeMailDomain('gmail.com', DEFAULT_FREE_MAIL_DOMAINS)).to.equal(true);
    expect(isFreeMailDomain('i.softbank.jp', DEFAULT_FREE_MAIL_DOMAINS)).to.equal(true);
    expect(isFreeMailDomain('mail.yahoo.co.jp', DEFAULT_FREE_MAIL_DOMAINS)).to.equal(true);
    expect(isFreeMailDomain('notgmail.com', DEFAULT_FREE_MAIL_DOMAINS)).to.equal(false);
    expect(isFreeMailDomain('corp.example.jp', DEFAULT_FREE_MAIL_DOMAINS)).to.equal(false);
  });

  describe('two organisations verifying the same domain at once', () => {
    let database: TestDatabase;
    before(async function () {
      this.timeout(60_000);
      database = await createTestDatabase();
    });
    after(async () => database?.destroy());

    it('verifies it for exactly one of them; the other is answered taken and stays pending', async () => {
      const { db } = database;
      const organizations = await db
        .insertInto('organizations')
        .values(['G0000101', 'G0000102'].map((gloplaId) => ({ gloplaId, gloplaIdName: gloplaId, corporationAccountName: gloplaId, corporationOfficialName: gloplaId, corporationAccountCode: gloplaId })))
        .returning('id')
        .execute();
      const trail = (organizationId: number) => auditTrail({ adminId: null, organizationId }, ['sso.domainAdded', 'sso.domainVerified']);
      const claims = await Promise.all(
        organizations.map(async ({ id }) => {
          const added = await addDomain(db, id, 'race.example.com', [], trail(id));
          if (added.outcome !== 'done') throw new Error(added.outcome);
          return { organizationId: id, domain: added.result };
        }),
      );
      // both lookups answer only once both are asked: each checks "verified by nobody" before either writes
      let release!: () => void;
      const bothAsked = new Promise<void>((resolve) => (release = resolve));
      let asked = 0;
      const lookup = async (name: string): Promise<TxtAnswer> => {
        asked += 1;
        if (asked === 2) release();
        await bothAsked;
        return { found: claims.filter((claim) => claim.domain.txtRecord.name === name).map((claim) => claim.domain.txtRecord.value) };
      };
      const outcomes = await Promise.all(claims.map((claim) => verifyDomain(db, claim.organizationId, claim.domain.id, lookup, trail(claim.organizationId))));
      expect(outcomes.map((outcome) => outcome.outcome).sort()).to.deep.equal(['done', 'invalid']);
      const refused = outcomes.find((outcome) => outcome.outcome === 'invalid') as { errors: Array<{ code: string }> };
      expect(refused.errors.map((error) => error.code)).to.deep.equal(['taken']);
      const verified = await db.selectFrom('ssoDomains').select('organizationId').where('domain', '=', 'race.example.com').where('verifiedAt', 'is not', null).execute();
      expect(verified).to.have.length(1);
    });
  });
});
