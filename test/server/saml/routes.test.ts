/** The SP metadata route (issue 45): public, for a SAML connection in any state; the SP's certificate kept in the database. */
import { randomUUID } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { expect } from 'chai';
import { createTestApp, useTestApp } from '../support/testApp.js';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';

describe('GET /saml/{connectionId}/metadata (issue 45)', () => {
  const ctx = useTestApp({ env: { PUBLIC_URL: 'https://portal.example.jp' } });
  let samlId: string;
  let oidcId: string;

  before(async () => {
    const organization = await ctx.db.insertInto('organizations')
      .values({ gloplaId: 'G0000452', gloplaIdName: 'G0000452', corporationAccountName: 'SAML', corporationOfficialName: 'SAML', corporationAccountCode: 'G0000452' })
      .returning('id').executeTakeFirstOrThrow();
    samlId = randomUUID();
    oidcId = randomUUID();
    await ctx.db.insertInto('ssoConnections').values([
      { id: samlId, organizationId: organization.id, protocol: 'saml', name: 'Draft SAML', attributeEmail: 'nameID' },
      { id: oidcId, organizationId: organization.id, protocol: 'oidc', name: 'OIDC', attributeEmail: 'email' },
    ]).execute();
  });

  it('answers a draft SAML connection\'s SP metadata without a session: entity ID, ACS URL, signing certificate, signed assertions wanted', async () => {
    const res = await ctx.app.inject({ url: `/saml/${samlId}/metadata` });
    expect(res.statusCode).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/samlmetadata\+xml/);
    const doc = new DOMParser().parseFromString(res.body, 'text/xml');
    const entity = doc.documentElement!;
    expect(entity.getAttribute('entityID')).to.equal(`https://portal.example.jp/saml/${samlId}`);
    const sp = entity.getElementsByTagNameNS(MD, 'SPSSODescriptor')[0]!;
    expect(sp.getAttribute('AuthnRequestsSigned')).to.equal('true');
    expect(sp.getAttribute('WantAssertionsSigned')).to.equal('true');
    const acs = entity.getElementsByTagNameNS(MD, 'AssertionConsumerService')[0]!;
    expect(acs.getAttribute('Location')).to.equal(`https://portal.example.jp/saml/${samlId}/acs`);
    expect(acs.getAttribute('Binding')).to.equal('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(entity.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0]?.textContent).to.match(/^[A-Za-z0-9+/=\s]{500,}$/);
  });

  it('publishes the same SP certificate from every instance on the database (generated once, kept there)', async () => {
    const certificate = (body: string) => new DOMParser().parseFromString(body, 'text/xml').getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0]?.textContent;
    const first = certificate((await ctx.app.inject({ url: `/saml/${samlId}/metadata` })).body);
    const other = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example.jp' }, testDatabase: ctx.testDatabase });
    try {
      expect(first).to.be.a('string');
      const stored = await ctx.db.selectFrom('serverSecrets').select('value').where('name', '=', 'saml_sp_key').executeTakeFirstOrThrow();
      expect((JSON.parse(stored.value) as { certificate: string }).certificate.replace(/-----[^-]+-----|\s/g, '')).to.equal(first!.replace(/\s/g, ''));
      expect(certificate((await other.app.inject({ url: `/saml/${samlId}/metadata` })).body)).to.equal(first);
    } finally {
      await other.app.close();
    }
  });

  it('answers 404 for an unknown id, a malformed one and an OpenID Connect connection', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', oidcId]) {
      expect((await ctx.app.inject({ url: `/saml/${id}/metadata` })).statusCode, id).to.equal(404);
    }
  });
});
