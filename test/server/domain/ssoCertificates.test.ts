/**
 * The IdP's certificates (issue 45 item 5, domain/ssoCertificates.ts): the expiry mails at 30 and 7 days, once per
 * certificate and threshold, only the expiring certificate of a rollover; and the metadata URL's daily refresh, which
 * keeps the last good XML when a fetch fails.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { cachedMetadataXml, runSsoCertificates as runJob, type SsoCertificateDeps } from '../../../src/server/domain/ssoCertificates.js';
import { idpMetadataXml, testIdpKey } from '../saml/testIdp.js';
import { bearer } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';
import { accessToken } from '../support/tokens.js';

const DAY_MS = 24 * 3600 * 1000;

describe('domain/ssoCertificates', function () {
  this.timeout(60_000);
  // the queued mails stay in mail_queue: the test reads them there
  const ctx = useTestApp({ env: { SEED: 'demo' }, mailQueueWorker: false });
  const now = new Date();
  const in20Days = new Date(now.getTime() + 20 * DAY_MS);
  let expiring: string;
  let lasting: string;
  const warnings: string[] = [];

  before(async () => {
    // selfsigned keeps the date only to the second: the certificates' notAfter are the ones made here
    expiring = (await testIdpKey({ notAfter: in20Days })).certificate;
    lasting = (await testIdpKey({ notAfter: new Date(now.getTime() + 400 * DAY_MS) })).certificate;
  });

  const deps = (fetchMetadata: (url: string) => Promise<string> = () => Promise.reject(new Error('no fetch in this test'))): SsoCertificateDeps => ({
    db: ctx.db,
    mailQueue: ctx.app.mailQueue,
    publicUrl: ctx.config.publicUrl,
    fetchMetadata,
    warn: (_detail, message) => warnings.push(message),
  });

  /**
   * One run that ran: the job lease given back is taken again only once the database's clock has moved on (PGlite's
   * now() can answer the same instant to two statements in a row), so a run right after another may be skipped.
   */
  async function runSsoCertificates(...args: Parameters<typeof runJob>): ReturnType<typeof runJob> {
    for (;;) {
      const result = await runJob(...args);
      if (result.ran) return result;
    }
  }

  /** A SAML connection of G0000001 (whose demo managers are manager@ and manager2@). */
  async function connection(name: string, values: { xml?: string; url?: string; state?: 'draft' | 'on' | 'paused' }): Promise<string> {
    const id = randomUUID();
    await ctx.db
      .insertInto('ssoConnections')
      .values({ id, organizationId: 1, protocol: 'saml', name, state: values.state ?? 'on', idpMetadataXml: values.xml ?? null, idpMetadataUrl: values.url ?? null, attributeEmail: 'nameID' })
      .execute();
    return id;
  }

  const mailsAbout = (name: string) =>
    ctx.db
      .selectFrom('mailQueue')
      .select([sql<string>`payload->>'to'`.as('to'), sql<string>`payload->>'subject'`.as('subject'), sql<string>`payload->>'text'`.as('text')])
      .where(sql<string>`payload->>'subject'`, 'like', `%${name}%`)
      .orderBy('id')
      .execute();
  const managers = ['manager@example.com', 'manager2@example.com'];

  it('mails each manager once at 30 days before the signing certificate expires, and once more within 7 days', async () => {
    await connection('Expiring IdP', { xml: idpMetadataXml([expiring]) });
    await runSsoCertificates(deps(), now);
    const first = await mailsAbout('Expiring IdP');
    expect(first.map((mail) => mail.to)).to.have.members(managers);
    expect(first[0]!.text).to.include('/sso?locale=').and.include(in20Days.toISOString().slice(0, 10));
    expect(first.map((mail) => mail.text).join()).to.match(/20 days left|残り20日/);

    await runSsoCertificates(deps(), now);
    expect(await mailsAbout('Expiring IdP'), 'the second run sends nothing more').to.have.length(2);

    // 15 days later: 5 days left, the 7-day mail
    await runSsoCertificates(deps(), new Date(now.getTime() + 15 * DAY_MS));
    const all = await mailsAbout('Expiring IdP');
    expect(all).to.have.length(4);
    expect(all.slice(2).map((mail) => mail.text).join()).to.match(/5 days left|残り5日/);
    await runSsoCertificates(deps(), new Date(now.getTime() + 16 * DAY_MS));
    expect(await mailsAbout('Expiring IdP')).to.have.length(4);
  });

  it('mails a certificate first seen within 7 days at the 7-day threshold only', async () => {
    const id = await connection('Late IdP', { xml: idpMetadataXml([expiring]) });
    await runSsoCertificates(deps(), new Date(now.getTime() + 15 * DAY_MS));
    expect(await mailsAbout('Late IdP')).to.have.length(2);
    const claims = await ctx.db.selectFrom('ssoCertificateReminders').select('threshold').where('connectionId', '=', id).execute();
    expect(claims.map((claim) => claim.threshold)).to.deep.equal([7]);
  });

  it('names only the expiring certificate during a rollover (metadata with two signing certificates)', async () => {
    const id = await connection('Rollover IdP', { xml: idpMetadataXml([lasting, expiring]) });
    await runSsoCertificates(deps(), now);
    expect(await mailsAbout('Rollover IdP')).to.have.length(2);
    const claims = await ctx.db.selectFrom('ssoCertificateReminders').select(['fingerprint', 'threshold']).where('connectionId', '=', id).execute();
    expect(claims).to.have.length(1);
    expect(claims[0]!.threshold).to.equal(30);
    expect((await mailsAbout('Rollover IdP'))[0]!.text).to.include(claims[0]!.fingerprint);
  });

  it('mails nothing for a draft connection nor for a certificate far from its expiry', async () => {
    await connection('Draft IdP', { xml: idpMetadataXml([expiring]), state: 'draft' });
    await connection('Lasting IdP', { xml: idpMetadataXml([lasting]) });
    await runSsoCertificates(deps(), now);
    expect(await mailsAbout('Draft IdP')).to.deep.equal([]);
    expect(await mailsAbout('Lasting IdP')).to.deep.equal([]);
  });

  it("deletes a connection's reminders with the connection", async () => {
    const id = await connection('Deleted IdP', { xml: idpMetadataXml([expiring]) });
    await runSsoCertificates(deps(), now);
    expect(await ctx.db.selectFrom('ssoCertificateReminders').select('threshold').where('connectionId', '=', id).execute()).to.have.length(1);
    await ctx.db.deleteFrom('ssoConnections').where('id', '=', id).execute();
    expect(await ctx.db.selectFrom('ssoCertificateReminders').select('threshold').where('connectionId', '=', id).execute()).to.deep.equal([]);
  });

  it('refreshes a metadata URL once a day, keeps the last good XML when a fetch fails or does not parse, and mails from the fetched metadata', async () => {
    const url = 'https://idp.example.com/metadata';
    const id = await connection('Fetched IdP', { url });
    const good = idpMetadataXml([expiring]);
    const fetched: string[] = [];
    const run = (at: Date, answer: () => Promise<string>) => runSsoCertificates(deps((target) => (fetched.push(target), answer())), at);
    const kept = async () => (await ctx.db.selectFrom('ssoConnections').select(['idpMetadataFetchedXml', 'idpMetadataFetchedAt']).where('id', '=', id).executeTakeFirstOrThrow());

    expect(await run(now, () => Promise.resolve(good))).to.deep.include({ ran: true, refreshed: 1, refreshFailed: 0 });
    expect((await kept()).idpMetadataFetchedXml).to.equal(good);
    expect(await mailsAbout('Fetched IdP'), 'the fetched metadata is watched').to.have.length(2);

    // within the day: not fetched again
    await run(new Date(now.getTime() + 3600 * 1000), () => Promise.resolve('<not-metadata/>'));
    expect(fetched).to.have.length(1);

    // the next day: a failed fetch, then metadata that does not parse, each keep the last good XML with a warning
    const fetchedAt = (await kept()).idpMetadataFetchedAt;
    warnings.length = 0;
    expect(await run(new Date(now.getTime() + DAY_MS + 1000), () => Promise.reject(new Error('timeout')))).to.deep.include({ refreshed: 0, refreshFailed: 1 });
    expect(await run(new Date(now.getTime() + DAY_MS + 2000), () => Promise.resolve('<not-metadata/>'))).to.deep.include({ refreshFailed: 1 });
    expect(fetched).to.have.length(3);
    expect(warnings).to.have.length(2);
    expect(await kept()).to.deep.equal({ idpMetadataFetchedXml: good, idpMetadataFetchedAt: fetchedAt });

    // a sign-in reads the kept XML without fetching
    const signIn = await cachedMetadataXml(ctx.db, { id, idpMetadataXml: null, idpMetadataUrl: url }, () => Promise.reject(new Error('not fetched')));
    expect(signIn).to.equal(good);
  });

  it('answers the pasted XML first, and fetches (and keeps) a changed URL\'s metadata the first time a sign-in needs it', async () => {
    const pasted = idpMetadataXml([lasting]);
    expect(await cachedMetadataXml(ctx.db, { id: randomUUID(), idpMetadataXml: pasted, idpMetadataUrl: null }, () => Promise.reject(new Error('not fetched')))).to.equal(pasted);

    const id = await connection('Moved IdP', { url: 'https://idp.example.com/old' });
    await ctx.db.updateTable('ssoConnections').set({ idpMetadataFetchedXml: idpMetadataXml([expiring]), idpMetadataFetchedFrom: 'https://idp.example.com/old', idpMetadataFetchedAt: now }).where('id', '=', id).execute();
    await ctx.db.updateTable('ssoConnections').set({ idpMetadataUrl: 'https://idp.example.com/new' }).where('id', '=', id).execute();
    const fresh = idpMetadataXml([lasting]);
    const answered = await cachedMetadataXml(ctx.db, { id, idpMetadataXml: null, idpMetadataUrl: 'https://idp.example.com/new' }, () => Promise.resolve(fresh));
    expect(answered).to.equal(fresh);
    const row = await ctx.db.selectFrom('ssoConnections').select(['idpMetadataFetchedXml', 'idpMetadataFetchedFrom']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).to.deep.equal({ idpMetadataFetchedXml: fresh, idpMetadataFetchedFrom: 'https://idp.example.com/new' });
  });

  it("answers a SAML connection's signing certificates with their expiry and fingerprint (both during a rollover), from the pasted or the last fetched metadata", async () => {
    const manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    const read = async (id: string) => {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/v2/organizations/1/sso_connections/${id}`, headers: manager });
      expect(response.statusCode, response.body).to.equal(200);
      return response.json().sso_connection.signing_certificates as { not_after: string; fingerprint: string }[];
    };
    const pasted = await read(await connection('Shown IdP', { xml: idpMetadataXml([lasting, expiring]) }));
    expect(pasted.map((certificate) => certificate.not_after.slice(0, 10))).to.deep.equal([new Date(now.getTime() + 400 * DAY_MS).toISOString().slice(0, 10), in20Days.toISOString().slice(0, 10)]);
    expect(pasted[0]!.fingerprint).to.match(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);

    const url = 'https://idp.example.com/shown';
    const fetchedId = await connection('Shown fetched IdP', { url });
    expect(await read(fetchedId), 'not fetched yet').to.deep.equal([]);
    await ctx.db.updateTable('ssoConnections').set({ idpMetadataFetchedXml: idpMetadataXml([expiring]), idpMetadataFetchedFrom: url, idpMetadataFetchedAt: now }).where('id', '=', fetchedId).execute();
    expect(await read(fetchedId)).to.have.length(1);
  });
});
