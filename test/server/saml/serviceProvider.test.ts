/**
 * The portal as a SAML service provider (issue 45; DESIGN §7 'Known traps'): the signed AuthnRequest kept by its
 * RelayState, and every trap of the IdP's answer refused — each test names the guard it proves. Responses are built
 * and signed here with a test IdP key (xml-crypto), then tampered with.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { expect } from 'chai';
import { newRelayState, samlServiceProvider, MULTI_FACTOR_CONTEXTS, type AcsIdentity, type AcsRefused, type SamlConnection } from '../../../src/server/saml/serviceProvider.js';
import { GuardedFetchError } from '../../../src/server/domain/guardedFetch.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';
import { encode, idpMetadataXml, requestIdOf, responseXml, sign, testIdpKey, type ResponseFields, type TestIdpKey } from './testIdp.js';

const PUBLIC_URL = 'https://portal.example.jp';

describe('SAML service provider: the IdP answer\'s checks (issue 45)', () => {
  let database: TestDatabase;
  let key: TestIdpKey;
  let otherKey: TestIdpKey;
  let connection: SamlConnection;
  let sp: ReturnType<typeof samlServiceProvider>;
  let acsUrl: string;
  let spEntityId: string;

  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
    [key, otherKey] = await Promise.all([testIdpKey(), testIdpKey()]);
    const { db } = database;
    const organization = await db
      .insertInto('organizations')
      .values({ gloplaId: 'G0000451', gloplaIdName: 'G0000451', corporationAccountName: 'SAML', corporationOfficialName: 'SAML', corporationAccountCode: 'G0000451' })
      .returning('id')
      .executeTakeFirstOrThrow();
    connection = { id: randomUUID(), organizationId: organization.id, idpMetadataXml: idpMetadataXml([key.certificate]), idpMetadataUrl: null, attributeEmail: 'nameID' };
    await db.insertInto('ssoConnections').values({ ...connection, protocol: 'saml', name: 'Test IdP', state: 'on' }).execute();
    await db.insertInto('ssoDomains').values({ id: randomUUID(), organizationId: organization.id, domain: 'example.com', connectionId: connection.id, verificationToken: 't', verifiedAt: new Date() }).execute();
    await db.insertInto('ssoDomains').values({ id: randomUUID(), organizationId: organization.id, domain: 'pending.example.com', verificationToken: 'u' }).execute();
    sp = samlServiceProvider(db, { publicUrl: PUBLIC_URL, allowLoopback: false });
    ({ acsUrl, spEntityId } = sp.urls(connection));
  });
  after(async () => database?.destroy());

  /** A sign-in started: its RelayState and the AuthnRequest's id. */
  async function started() {
    const relayState = newRelayState();
    const url = await sp.authnRequestUrl(connection, relayState);
    return { relayState, requestId: requestIdOf(url), url };
  }

  const fieldsFor = (requestId: string, fields: Partial<ResponseFields> = {}): ResponseFields => ({ inResponseTo: requestId, acsUrl, audience: spEntityId, ...fields });

  /** A response to a new request, its assertion signed (or tampered with by `change`), posted to the ACS. */
  async function answer(fields: Partial<ResponseFields> = {}, change: (signed: string) => string = (signed) => signed, signer = key) {
    const { relayState, requestId } = await started();
    const xml = change(sign(responseXml(fieldsFor(requestId, fields)), signer, 'Assertion'));
    return sp.validateAcsPost(connection, { SAMLResponse: encode(xml), RelayState: relayState });
  }

  const identity = (result: AcsIdentity | AcsRefused): AcsIdentity => {
    if (!result.ok) throw new Error(`refused: ${result.refusal} ${result.detail ?? ''}`);
    return result;
  };
  const refusal = (result: AcsIdentity | AcsRefused) => (result.ok ? `accepted ${result.email}` : result.refusal);

  describe('the request', () => {
    it('sends a signed AuthnRequest (SHA-256) to the IdP\'s redirect URL, its id stored under the RelayState', async () => {
      const { url, relayState, requestId } = await started();
      const params = new URL(url).searchParams;
      expect(url.startsWith('https://idp.example.com/saml/sso?')).to.equal(true);
      expect(params.get('SigAlg')).to.equal('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      expect(params.get('Signature')).to.be.a('string').and.not.empty;
      expect(params.get('RelayState')).to.equal(relayState);
      const row = await database.db.selectFrom('samlRequests').selectAll().where('relayState', '=', relayState).executeTakeFirstOrThrow();
      expect(row.requestId).to.equal(requestId);
      expect(row.connectionId).to.equal(connection.id);
    });

    it('refuses a RelayState too short to be unguessable or longer than SAML allows', async () => {
      for (const relayState of ['short', 'x'.repeat(81), 'has spaces in it, sixteen+']) {
        let error: unknown;
        await sp.authnRequestUrl(connection, relayState).catch((caught: unknown) => (error = caught));
        expect(error, relayState).to.be.instanceOf(Error);
      }
    });
  });

  describe('metadata from the IdP\'s URL', () => {
    let server: http.Server;
    let metadataUrl: string;
    before(async () => {
      server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(idpMetadataXml([key.certificate])));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      metadataUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('fetches it through the guarded fetch: loopback in demo mode only', async () => {
      const byUrl = { ...connection, idpMetadataXml: null, idpMetadataUrl: metadataUrl };
      const demo = samlServiceProvider(database.db, { publicUrl: PUBLIC_URL, allowLoopback: true });
      const relayState = newRelayState();
      const requestId = requestIdOf(await demo.authnRequestUrl(byUrl, relayState));
      const xml = sign(responseXml(fieldsFor(requestId)), key, 'Assertion');
      identity(await demo.validateAcsPost(byUrl, { SAMLResponse: encode(xml), RelayState: relayState }));

      let error: unknown;
      await sp.authnRequestUrl(byUrl, newRelayState()).catch((caught: unknown) => (error = caught));
      expect(error).to.be.instanceOf(GuardedFetchError);
      expect((error as GuardedFetchError).reason).to.equal('httpsRequired');
    });
  });

  describe('a valid answer', () => {
    it('names the admin: e-mail (lower-case), NameID, session index, no second factor for a password', async () => {
      const result = identity(await answer({ nameId: 'Admin@Example.com' }));
      expect(result.email).to.equal('admin@example.com');
      expect(result.nameId).to.equal('Admin@Example.com');
      expect(result.sessionIndex).to.match(/^_s/);
      expect(result.mfa).to.equal(false);
    });

    it('tells a multi-factor AuthnContextClassRef (one of the configurable list)', async () => {
      expect(identity(await answer({ classRef: 'https://refeds.org/profile/mfa' })).mfa).to.equal(true);
      expect(MULTI_FACTOR_CONTEXTS).to.include('http://schemas.microsoft.com/claims/multipleauthn');
      const strict = samlServiceProvider(database.db, { publicUrl: PUBLIC_URL, allowLoopback: false, mfaContexts: ['urn:example:only'] });
      const relayState = newRelayState();
      const requestId = requestIdOf(await strict.authnRequestUrl(connection, relayState));
      const xml = sign(responseXml(fieldsFor(requestId, { classRef: 'https://refeds.org/profile/mfa' })), key, 'Assertion');
      expect(identity(await strict.validateAcsPost(connection, { SAMLResponse: encode(xml), RelayState: relayState })).mfa).to.equal(false);
    });

    it('takes the e-mail from the mapped attribute when the connection names one', async () => {
      const mapped = { ...connection, attributeEmail: 'mail' };
      const relayState = newRelayState();
      const requestId = requestIdOf(await sp.authnRequestUrl(mapped, relayState));
      const xml = sign(responseXml(fieldsFor(requestId, { nameId: 'opaque-id-123', attributes: { mail: 'someone@example.com' } })), key, 'Assertion');
      const result = identity(await sp.validateAcsPost(mapped, { SAMLResponse: encode(xml), RelayState: relayState }));
      expect(result.email).to.equal('someone@example.com');
      expect(result.nameId).to.equal('opaque-id-123');
    });

    it('accepts either key during a rollover (metadata with two signing certificates)', async () => {
      const rolling = { ...connection, idpMetadataXml: idpMetadataXml([key.certificate, otherKey.certificate]) };
      for (const signer of [key, otherKey]) {
        const relayState = newRelayState();
        const requestId = requestIdOf(await sp.authnRequestUrl(rolling, relayState));
        const xml = sign(responseXml(fieldsFor(requestId)), signer, 'Assertion');
        identity(await sp.validateAcsPost(rolling, { SAMLResponse: encode(xml), RelayState: relayState }));
      }
    });
  });

  describe('signatures', () => {
    it('refuses an unsigned response and assertion', async () => {
      expect(refusal(await answer({}, () => responseXml(fieldsFor('_unused'))))).to.equal('invalid');
      const { relayState, requestId } = await started();
      const unsigned = responseXml(fieldsFor(requestId));
      expect(refusal(await sp.validateAcsPost(connection, { SAMLResponse: encode(unsigned), RelayState: relayState }))).to.equal('invalid');
    });

    it('refuses a response signed but its assertion not (the assertion must be signed)', async () => {
      const { relayState, requestId } = await started();
      const responseOnly = sign(responseXml(fieldsFor(requestId)), key, 'Response');
      expect(refusal(await sp.validateAcsPost(connection, { SAMLResponse: encode(responseOnly), RelayState: relayState }))).to.equal('invalid');
    });

    it('refuses an assertion signed by a key the metadata does not name', async () => {
      expect(refusal(await answer({}, undefined, otherKey))).to.equal('invalid');
    });

    it('refuses an assertion changed after it was signed', async () => {
      expect(refusal(await answer({ nameId: 'attacker@example.com' }, (signed) => signed.replace('attacker@example.com', 'ceo@example.com')))).to.equal('invalid');
    });

    it('refuses a SHA-1 signature and digest, though the signature is valid', async () => {
      const { relayState, requestId } = await started();
      const xml = sign(responseXml(fieldsFor(requestId)), key, 'Assertion', 'sha1');
      expect(refusal(await sp.validateAcsPost(connection, { SAMLResponse: encode(xml), RelayState: relayState }))).to.equal('sha1');
    });
  });

  describe('XML signature wrapping (XSW): the signed assertion moved, an unsigned one where it is read', () => {
    /** The signed response's DOM, its signed assertion, and an unsigned evil copy naming ceo@example.com. */
    function parts(signed: string) {
      const doc = new DOMParser().parseFromString(signed, 'text/xml');
      const response = doc.documentElement!;
      const assertion = Array.from(response.childNodes as unknown as ArrayLike<Element>).find((node) => node.localName === 'Assertion')!;
      const evil = assertion.cloneNode(true) as Element;
      const evilSignature = Array.from(evil.childNodes as unknown as ArrayLike<Element>).find((node) => node.localName === 'Signature')!;
      evil.removeChild(evilSignature);
      const nameId = evil.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'NameID')[0]!;
      nameId.textContent = 'ceo@example.com';
      return { doc, response, assertion, evil, serialize: () => new XMLSerializer().serializeToString(doc) };
    }
    const signedAs = { nameId: 'attacker@example.com' };

    it('XSW3: an evil assertion beside the signed one', async () => {
      const result = await answer(signedAs, (signed) => {
        const { response, assertion, evil, serialize } = parts(signed);
        evil.setAttribute('ID', '_evil');
        response.insertBefore(evil, assertion);
        return serialize();
      });
      expect(refusal(result)).to.equal('invalid');
    });

    it('XSW4: the signed assertion inside the evil one that takes its place', async () => {
      const result = await answer(signedAs, (signed) => {
        const { response, assertion, evil, serialize } = parts(signed);
        evil.setAttribute('ID', '_evil');
        response.replaceChild(evil, assertion);
        evil.appendChild(assertion);
        return serialize();
      });
      expect(refusal(result)).to.equal('invalid');
    });

    it('XSW7/8: the evil assertion carries the signature, the signed assertion hidden in its ds:Object', async () => {
      const result = await answer(signedAs, (signed) => {
        const { doc, response, assertion, evil, serialize } = parts(signed);
        const signature = Array.from(assertion.childNodes as unknown as ArrayLike<Element>).find((node) => node.localName === 'Signature')!;
        response.replaceChild(evil, assertion);
        evil.insertBefore(signature, evil.childNodes[1] ?? null);
        const object = doc.createElementNS('http://www.w3.org/2000/09/xmldsig#', 'ds:Object');
        signature.appendChild(object);
        object.appendChild(assertion);
        return serialize();
      });
      expect(refusal(result)).to.equal('invalid');
    });

    it('XSW1/2: the signed assertion tucked into the response\'s Extensions, the evil one read', async () => {
      const result = await answer(signedAs, (signed) => {
        const { doc, response, assertion, evil, serialize } = parts(signed);
        const extensions = doc.createElementNS('urn:oasis:names:tc:SAML:2.0:protocol', 'samlp:Extensions');
        response.replaceChild(evil, assertion);
        response.insertBefore(extensions, evil);
        extensions.appendChild(assertion);
        return serialize();
      });
      expect(refusal(result)).to.equal('invalid');
    });

    it('the evil assertion under the signed one\'s ID with its signature copied', async () => {
      const result = await answer(signedAs, (signed) => {
        const { response, assertion, evil, serialize } = parts(signed);
        const signature = Array.from(assertion.childNodes as unknown as ArrayLike<Element>).find((node) => node.localName === 'Signature')!;
        response.replaceChild(evil, assertion);
        evil.insertBefore(signature.cloneNode(true), evil.childNodes[1] ?? null);
        return serialize();
      });
      expect(refusal(result)).to.equal('invalid');
    });
  });

  describe('what the assertion says', () => {
    it('refuses a NameID split by a comment (the signature holds without it; a parser could read the first half)', async () => {
      // signed as 'admin@example.com<!---->.evil.com': canonical form without comments is admin@example.com.evil.com
      expect(refusal(await answer({ nameIdXml: 'admin@example.com<!---->.evil.com' }))).to.equal('commentInNameId');
    });

    it('refuses a DOCTYPE (entities) before reading anything else', async () => {
      const result = await answer({}, (signed) => `<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]>${signed}`);
      expect(refusal(result)).to.equal('doctype');
    });

    it('refuses a wrong Audience', async () => {
      const result = await answer({ audience: 'https://other-sp.example.com' });
      expect(refusal(result)).to.equal('invalid');
      expect((result as AcsRefused).detail).to.match(/audience/i);
    });

    it('refuses a wrong Recipient', async () => {
      expect(refusal(await answer({ recipient: 'https://other-sp.example.com/acs' }))).to.equal('wrongRecipient');
    });

    it('refuses a wrong Destination', async () => {
      expect(refusal(await answer({ destination: 'https://other-sp.example.com/acs' }))).to.equal('wrongDestination');
    });

    it('refuses another issuer than the metadata\'s entity (signed by the same key)', async () => {
      expect(refusal(await answer({ issuer: 'https://someone-else.example.com' }))).to.equal('wrongIssuer');
    });

    it('refuses NotBefore and NotOnOrAfter beyond the 2-minute skew, accepts them within it', async () => {
      const minutes = (count: number) => new Date(Date.now() + count * 60_000);
      expect(refusal(await answer({ notBefore: minutes(3) }))).to.equal('invalid');
      expect(refusal(await answer({ notBefore: minutes(-10), notOnOrAfter: minutes(-3) }))).to.equal('invalid');
      identity(await answer({ notBefore: minutes(1) }));
      identity(await answer({ notBefore: minutes(-10), notOnOrAfter: minutes(-1) }));
    });

    it('refuses an e-mail outside the organisation\'s verified domains (a pending one, a subdomain, another)', async () => {
      for (const nameId of ['admin@pending.example.com', 'admin@sub.example.com', 'admin@example.org']) {
        expect(refusal(await answer({ nameId })), nameId).to.equal('domainNotVerified');
      }
    });

    it('refuses an oversized SAMLResponse before parsing it', async () => {
      const { relayState } = await started();
      const result = await sp.validateAcsPost(connection, { SAMLResponse: 'A'.repeat(400 * 1024), RelayState: relayState });
      expect(refusal(result)).to.equal('tooLarge');
      // the request is still there: nothing was read
      expect(await database.db.selectFrom('samlRequests').select('requestId').where('relayState', '=', relayState).executeTakeFirst()).to.not.equal(undefined);
    });
  });

  describe('one-time requests and assertions, shared by every instance (the database)', () => {
    it('refuses an InResponseTo naming no stored request', async () => {
      expect(refusal(await answer({ inResponseTo: '_never-asked' }))).to.equal('invalid');
    });

    it('refuses an answer to another browser\'s request (its RelayState names a different one)', async () => {
      const other = await started();
      expect(refusal(await answer({ inResponseTo: other.requestId }))).to.equal('invalid');
    });

    it('refuses a second answer to a request already answered, on another instance too', async () => {
      const { relayState, requestId } = await started();
      const body = { SAMLResponse: encode(sign(responseXml(fieldsFor(requestId)), key, 'Assertion')), RelayState: relayState };
      identity(await sp.validateAcsPost(connection, body));
      const otherInstance = samlServiceProvider(database.db, { publicUrl: PUBLIC_URL, allowLoopback: false });
      expect(refusal(await otherInstance.validateAcsPost(connection, body))).to.equal('unknownRequest');
    });

    it('refuses an assertion ID seen before, though it answers a new request, on another instance too', async () => {
      const assertionId = `_a${randomUUID()}`;
      identity(await answer({ assertionId }));
      expect(refusal(await answer({ assertionId }))).to.equal('replay');
      const otherInstance = samlServiceProvider(database.db, { publicUrl: PUBLIC_URL, allowLoopback: false });
      const { relayState, requestId } = await started();
      const xml = sign(responseXml(fieldsFor(requestId, { assertionId })), key, 'Assertion');
      expect(refusal(await otherInstance.validateAcsPost(connection, { SAMLResponse: encode(xml), RelayState: relayState }))).to.equal('replay');
    });

    it('accepts one of two copies of an answer posted at once (the request is taken by one of them)', async () => {
      const { relayState, requestId } = await started();
      const body = { SAMLResponse: encode(sign(responseXml(fieldsFor(requestId)), key, 'Assertion')), RelayState: relayState };
      const otherInstance = samlServiceProvider(database.db, { publicUrl: PUBLIC_URL, allowLoopback: false });
      const results = await Promise.all([sp.validateAcsPost(connection, body), otherInstance.validateAcsPost(connection, body)]);
      expect(results.filter((result) => result.ok)).to.have.length(1);
      expect(results.map(refusal)).to.include('unknownRequest');
    });

    it('prunes requests and assertion ids past their expiry when a sign-in starts', async () => {
      const { relayState } = await started();
      const assertionId = `_a${randomUUID()}`;
      await database.db.insertInto('samlAssertions').values({ assertionId, connectionId: connection.id, expiresAt: new Date(Date.now() - 1000) }).execute();
      await database.db.updateTable('samlRequests').set({ expiresAt: new Date(Date.now() - 1000) }).where('relayState', '=', relayState).execute();
      await started();
      expect(await database.db.selectFrom('samlRequests').select('relayState').where('relayState', '=', relayState).executeTakeFirst()).to.equal(undefined);
      expect(await database.db.selectFrom('samlAssertions').select('assertionId').where('assertionId', '=', assertionId).executeTakeFirst()).to.equal(undefined);
    });

    it('refuses an answer without a RelayState or with an expired request', async () => {
      const { relayState, requestId } = await started();
      const body = { SAMLResponse: encode(sign(responseXml(fieldsFor(requestId)), key, 'Assertion')) };
      expect(refusal(await sp.validateAcsPost(connection, body))).to.equal('unknownRequest');
      await database.db.updateTable('samlRequests').set({ expiresAt: new Date(Date.now() - 1000) }).where('relayState', '=', relayState).execute();
      expect(refusal(await sp.validateAcsPost(connection, { ...body, RelayState: relayState }))).to.equal('unknownRequest');
    });
  });
});
