/**
 * The portal as a SAML 2.0 service provider of an organisation's connection (issue 45), with @node-saml/node-saml
 * (no hand-written XML signature code): the SP's metadata, the signed AuthnRequest (HTTP-Redirect) and the checks of
 * the IdP's answer POSTed to the ACS. What node-saml leaves to its caller is checked here (DESIGN §7 'Known traps'):
 * - the answer's size before any parsing, and a DOCTYPE refused (entities);
 * - InResponseTo: the request is kept in the database keyed by its RelayState (the cross-site POST brings none of the
 *   portal's cookies) and taken — deleted — before the answer is read: a second answer to it, or one naming another
 *   browser's request, finds nothing. Every instance shares the table;
 * - SHA-1 signatures and digests refused (xml-crypto still takes them);
 * - Destination, Recipient and Issuer compared with the connection's; node-saml checks the Audience and the times;
 * - the NameID read from the signed assertion node-saml verified (canonical: without comments), and refused if a
 *   comment splits it in the document sent (a parser reading the first text node sees a shorter address than signed);
 * - the assertion's ID recorded until it expires: a replay is refused on every instance;
 * - the e-mail at one of the connection's organisation's verified domains.
 * An unsolicited answer (IdP-initiated sign-in, a connection's option: the caller decides) answers no request: it must
 * name none (neither the Response's InResponseTo nor its assertion's SubjectConfirmationData's), and every other check
 * above still runs — the assertion ID's replay record most of all, as no request is used up.
 */
import { SAML, ValidateInResponseTo, generateServiceProviderMetadata, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { federationUrls } from '../domain/ssoConnections.js';
import { guardedFetch } from '../domain/guardedFetch.js';
import { DEFAULT_MFA_CONTEXTS } from './authnContexts.js';
import { cachedMetadataXml } from '../domain/ssoCertificates.js';
import { MetadataError, parseIdpMetadata, parseXmlStrict, type IdpMetadata } from './idpMetadata.js';
import { spKeyPair } from './spKeys.js';

/** A SAML connection as the sign-in reads it (sso_connections). */
export interface SamlConnection {
  id: string;
  organizationId: number;
  idpMetadataXml: string | null;
  idpMetadataUrl: string | null;
  /** 'nameID', or the name of the attribute holding the e-mail. */
  attributeEmail: string;
  /** The attributes holding the family and given names (null or absent: not read). */
  attributeFamilyName?: string | null;
  attributeGivenName?: string | null;
}

export interface ServiceProviderOptions {
  /** The portal's PUBLIC_URL: the SP's entity ID and ACS URL are under it. */
  publicUrl: string;
  /** Demo mode: an IdP metadata URL may be http on loopback. */
  allowLoopback: boolean;
  /** SSO_ALLOW_PRIVATE_ADDRESSES: a metadata URL may name the private ranges (an IdP on the company network). */
  allowPrivate?: boolean;
  /** AuthnContextClassRefs taken as multi-factor (default MULTI_FACTOR_CONTEXTS). */
  mfaContexts?: readonly string[];
  /** Fetches a metadata URL (default: guardedFetch); tests name their own. */
  fetchMetadata?: (url: string) => Promise<string>;
}

/** The AuthnContextClassRefs that name a second factor by default (config: SSO_MFA_CONTEXTS). */
export const MULTI_FACTOR_CONTEXTS = DEFAULT_MFA_CONTEXTS;

/** How long a request awaits its answer. */
export const REQUEST_TTL_MS = 10 * 60 * 1000;
/** The clock difference tolerated between the IdP and the portal (NotBefore, NotOnOrAfter). */
export const CLOCK_SKEW_MS = 2 * 60 * 1000;
/** The largest SAMLResponse taken, decoded (a signed assertion with its certificate is a few KB). */
export const MAX_RESPONSE_BYTES = 256 * 1024;
/** RelayState's bounds (SAML bindings §3.4.3: at most 80 bytes). */
const RELAY_STATE = /^[A-Za-z0-9_-]{16,80}$/;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const SHA1_ALGORITHMS = new Set(['http://www.w3.org/2000/09/xmldsig#rsa-sha1', 'http://www.w3.org/2000/09/xmldsig#sha1', 'http://www.w3.org/2000/09/xmldsig#dsa-sha1', 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha1']);
const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** Why an answer at the ACS is refused (logged; the page says only that the sign-in failed). */
export type AcsRefusal =
  | 'tooLarge' | 'malformed' | 'doctype' | 'unknownRequest' | 'metadata' | 'invalid' | 'sha1' | 'wrongDestination' | 'wrongRecipient'
  | 'wrongIssuer' | 'commentInNameId' | 'replay' | 'noEmail' | 'domainNotVerified';

export interface AcsIdentity {
  ok: true;
  /** Lower-case, at a verified domain of the connection's organisation. */
  email: string;
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
  /** The IdP asserted a second factor (its AuthnContextClassRef is in the multi-factor list). */
  mfa: boolean;
  authnContextClassRef: string | null;
  relayState: string;
  /** The names in the connection's name attributes, if sent (for just-in-time creation). */
  familyName?: string;
  givenName?: string;
  /** The IdP's attributes as node-saml read them from the signed assertion (for the attribute mapping and 'Test connection'). */
  attributes: Record<string, unknown>;
}

export interface AcsRefused {
  ok: false;
  refusal: AcsRefusal;
  /** What the library or check said (for the log, never for the page). */
  detail?: string;
}

const refused = (refusal: AcsRefusal, detail?: string): AcsRefused => ({ ok: false, refusal, detail });

/** A cache provider answering for one request only: the one this answer's RelayState took from the database. */
function takenRequestCache(requestId: string | undefined, createdAt: Date): CacheProvider {
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (requestId !== undefined && key === requestId ? createdAt.toISOString() : null),
    removeAsync: async () => null,
  };
}

/** The children of `parent` named `localName` in the SAML assertion namespace (a path, not a search of the subtree). */
const samlChildren = (parent: Element | undefined, localName: string): Element[] =>
  parent ? Array.from(parent.childNodes as unknown as ArrayLike<Node>).filter((node): node is Element => node.nodeType === 1 && (node as Element).namespaceURI === SAML_NS && (node as Element).localName === localName) : [];

/** Elements named `localName` in the SAML assertion namespace under `root`. */
const samlElements = (root: Document | Element, localName: string): Element[] => Array.from(root.getElementsByTagNameNS(SAML_NS, localName) as unknown as ArrayLike<Element>);

export function samlServiceProvider(db: Db, options: ServiceProviderOptions) {
  const mfaContexts = new Set(options.mfaContexts ?? MULTI_FACTOR_CONTEXTS);
  const fetchMetadata = options.fetchMetadata ?? ((url: string) => guardedFetch(url, { allowLoopback: options.allowLoopback, allowPrivate: options.allowPrivate }));
  const urls = (connection: SamlConnection) => {
    const { spEntityId, acsUrl } = federationUrls(options.publicUrl, { id: connection.id, protocol: 'saml' });
    return { spEntityId: spEntityId!, acsUrl: acsUrl! };
  };

  /** The IdP's metadata: the pasted XML, else the last good copy of its URL (the daily refresh's), fetched (guarded) only when none is kept yet. */
  async function idpMetadata(connection: SamlConnection): Promise<IdpMetadata> {
    if (connection.idpMetadataXml) return parseIdpMetadata(connection.idpMetadataXml);
    if (connection.idpMetadataUrl) return parseIdpMetadata(await cachedMetadataXml(db, connection, fetchMetadata));
    throw new MetadataError('noIdp');
  }

  async function saml(connection: SamlConnection, idp: IdpMetadata, cacheProvider: CacheProvider, validateInResponseTo = ValidateInResponseTo.always): Promise<SAML> {
    const keys = await spKeyPair(db);
    const { spEntityId, acsUrl } = urls(connection);
    return new SAML({
      issuer: spEntityId,
      callbackUrl: acsUrl,
      audience: spEntityId,
      entryPoint: idp.ssoUrl,
      idpCert: idp.signingCertificates.map((cert) => cert.pem),
      privateKey: keys.privateKey,
      publicCert: keys.certificate,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'sha256',
      identifierFormat: connection.attributeEmail === 'nameID' ? EMAIL_FORMAT : null,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      // no RequestedAuthnContext: asking for 'password' would forbid the IdP's stronger methods
      disableRequestedAuthnContext: true,
      validateInResponseTo,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      cacheProvider,
    });
  }

  /** The SP's metadata XML for the connection (GET /saml/{connectionId}/metadata). */
  async function metadataXml(connection: Pick<SamlConnection, 'id' | 'attributeEmail'>): Promise<string> {
    const keys = await spKeyPair(db);
    const { spEntityId, acsUrl } = urls(connection as SamlConnection);
    return generateServiceProviderMetadata({
      issuer: spEntityId,
      callbackUrl: acsUrl,
      // the private key only marks AuthnRequestsSigned and names the certificate; the metadata itself is not signed
      privateKey: keys.privateKey,
      publicCerts: keys.certificate,
      signatureAlgorithm: 'sha256',
      signMetadata: false,
      wantAssertionsSigned: true,
      identifierFormat: connection.attributeEmail === 'nameID' ? EMAIL_FORMAT : null,
    });
  }

  /**
   * The IdP's URL to send the browser to, with a signed AuthnRequest (HTTP-Redirect). Its id is stored under
   * `relayState` (16–80 URL-safe characters, unguessable: the caller's) for 10 minutes.
   */
  async function authnRequestUrl(connection: SamlConnection, relayState: string): Promise<string> {
    if (!RELAY_STATE.test(relayState)) throw new Error('RelayState must be 16 to 80 URL-safe characters');
    const idp = await idpMetadata(connection);
    await pruneExpired(db);
    const cacheProvider: CacheProvider = {
      saveAsync: async (requestId, value) => {
        await db.insertInto('samlRequests').values({ relayState, connectionId: connection.id, requestId, expiresAt: new Date(Date.now() + REQUEST_TTL_MS) }).execute();
        return { value, createdAt: Date.now() };
      },
      getAsync: async () => null,
      removeAsync: async () => null,
    };
    return (await saml(connection, idp, cacheProvider)).getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /**
   * The IdP's answer POSTed to the ACS (`SAMLResponse`, `RelayState`): the admin it names, or why it is refused.
   * `unsolicited`: an answer to no request (IdP-initiated; only for a connection that takes them), its RelayState unused.
   */
  async function validateAcsPost(connection: SamlConnection, body: Record<string, unknown>, options: { unsolicited?: boolean } = {}): Promise<AcsIdentity | AcsRefused> {
    const encoded = body.SAMLResponse;
    const relayState = body.RelayState;
    if (typeof encoded !== 'string' || encoded.length === 0) return refused('malformed');
    if (encoded.length > Math.ceil(MAX_RESPONSE_BYTES / 3) * 4 + 4096) return refused('tooLarge');
    const xml = Buffer.from(encoded, 'base64').toString('utf8');
    if (Buffer.byteLength(xml) > MAX_RESPONSE_BYTES) return refused('tooLarge');
    let doc: Document;
    try {
      doc = parseXmlStrict(xml);
    } catch (error) {
      return refused(error instanceof MetadataError && error.problem === 'doctype' ? 'doctype' : 'malformed');
    }
    if (options.unsolicited) return validateUnsolicited(connection, encoded, doc);
    if (typeof relayState !== 'string' || !RELAY_STATE.test(relayState)) return refused('unknownRequest');

    // the request is taken before anything else is believed: one answer per request, on every instance
    const taken = await db
      .deleteFrom('samlRequests')
      .where('relayState', '=', relayState)
      .where('connectionId', '=', connection.id)
      .where('expiresAt', '>', new Date())
      .returning(['requestId', 'expiresAt'])
      .executeTakeFirst();
    if (!taken) return refused('unknownRequest');

    let idp: IdpMetadata;
    try {
      idp = await idpMetadata(connection);
    } catch (error) {
      return refused('metadata', (error as Error).message);
    }
    let profile: Profile;
    try {
      const createdAt = new Date(new Date(taken.expiresAt).getTime() - REQUEST_TTL_MS);
      const result = await (await saml(connection, idp, takenRequestCache(taken.requestId, createdAt))).validatePostResponseAsync({ SAMLResponse: encoded });
      if (!result.profile) return refused('invalid', 'no assertion');
      profile = result.profile;
    } catch (error) {
      return refused('invalid', (error as Error).message);
    }
    return checkAssertion(connection, doc, profile, relayState, idp);
  }

  /** An unsolicited answer: node-saml refuses any InResponseTo of the Response (no request is known); the assertion's is checked here. */
  async function validateUnsolicited(connection: SamlConnection, encoded: string, doc: Document): Promise<AcsIdentity | AcsRefused> {
    let idp: IdpMetadata;
    try {
      idp = await idpMetadata(connection);
    } catch (error) {
      return refused('metadata', (error as Error).message);
    }
    let profile: Profile;
    try {
      const result = await (await saml(connection, idp, takenRequestCache(undefined, new Date()), ValidateInResponseTo.ifPresent)).validatePostResponseAsync({ SAMLResponse: encoded });
      if (!result.profile) return refused('invalid', 'no assertion');
      profile = result.profile;
    } catch (error) {
      return refused('invalid', (error as Error).message);
    }
    // an answer to somebody's request, its Response's InResponseTo removed (the Response is not signed), is not unsolicited
    const assertion = parseXmlStrict(profile.getAssertionXml!()).documentElement!;
    if (doc.documentElement!.hasAttribute('InResponseTo') || samlElements(assertion, 'SubjectConfirmationData').some((data) => data.hasAttribute('InResponseTo'))) {
      return refused('unknownRequest', 'an unsolicited answer naming a request');
    }
    // node-saml checks the subject's times only with an InResponseTo: a bearer confirmation still in time is required here
    if (!samlElements(assertion, 'SubjectConfirmationData').some(inTime)) return refused('invalid', 'no subject confirmation in time');
    return checkAssertion(connection, doc, profile, '', idp);
  }

  /** The checks on what node-saml verified; then the replay record and the verified domain. */
  async function checkAssertion(connection: SamlConnection, response: Document, profile: Profile, relayState: string, idp: IdpMetadata): Promise<AcsIdentity | AcsRefused> {
    const { acsUrl } = urls(connection);
    for (const method of [...Array.from(response.getElementsByTagNameNS(DSIG_NS, 'SignatureMethod') as unknown as ArrayLike<Element>), ...Array.from(response.getElementsByTagNameNS(DSIG_NS, 'DigestMethod') as unknown as ArrayLike<Element>)]) {
      if (SHA1_ALGORITHMS.has(method.getAttribute('Algorithm') ?? '')) return refused('sha1');
    }
    // the verified assertion is node-saml's canonical form, comments dropped; the document as sent still has them:
    // a NameID split by one is refused, whatever a parser downstream would make of it
    const sentNameIds = samlElements(response, 'NameID');
    if (sentNameIds.some((element) => Array.from(element.childNodes as unknown as ArrayLike<Node>).some((node) => node.nodeType !== 3 /* TEXT_NODE */))) return refused('commentInNameId');
    const destination = response.documentElement!.getAttribute('Destination');
    if (destination && destination !== acsUrl) return refused('wrongDestination', destination);

    // everything below is read from the assertion whose signature node-saml verified, never from the document around it
    const assertion = parseXmlStrict(profile.getAssertionXml!()).documentElement!;
    const issuer = samlChildren(assertion, 'Issuer')[0]?.textContent?.trim();
    if (issuer !== idp.entityId) return refused('wrongIssuer', issuer);
    const recipients = samlElements(assertion, 'SubjectConfirmationData').map((data) => data.getAttribute('Recipient'));
    if (recipients.length === 0 || recipients.some((recipient) => recipient !== acsUrl)) return refused('wrongRecipient', recipients.join(' '));
    const nameIdElement = samlChildren(samlChildren(assertion, 'Subject')[0], 'NameID')[0];
    if (!nameIdElement) return refused('invalid', 'no NameID');
    const nameId = (nameIdElement.textContent ?? '').trim();
    const classRef = samlChildren(samlChildren(samlChildren(assertion, 'AuthnStatement')[0], 'AuthnContext')[0], 'AuthnContextClassRef')[0]?.textContent?.trim() ?? null;

    const assertionId = assertion.getAttribute('ID');
    if (!assertionId) return refused('invalid', 'no assertion ID');
    const notOnOrAfter = [...samlElements(assertion, 'Conditions'), ...samlElements(assertion, 'SubjectConfirmationData')]
      .map((element) => Date.parse(element.getAttribute('NotOnOrAfter') ?? ''))
      .filter(Number.isFinite);
    const expiresAt = new Date(Math.max(Date.now() + REQUEST_TTL_MS, ...notOnOrAfter) + CLOCK_SKEW_MS);
    const recorded = await db
      .insertInto('samlAssertions')
      .values({ assertionId, connectionId: connection.id, expiresAt })
      .onConflict((conflict) => conflict.column('assertionId').doNothing())
      .returning('assertionId')
      .executeTakeFirst();
    if (!recorded) return refused('replay', assertionId);

    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    const rawEmail = connection.attributeEmail === 'nameID' ? nameId : firstString(attributes[connection.attributeEmail]);
    const email = rawEmail?.trim().toLowerCase();
    if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) return refused('noEmail');
    if (!(await atVerifiedDomain(db, connection.organizationId, email))) return refused('domainNotVerified', email.split('@')[1]);
    const familyName = connection.attributeFamilyName ? firstString(attributes[connection.attributeFamilyName]) : undefined;
    const givenName = connection.attributeGivenName ? firstString(attributes[connection.attributeGivenName]) : undefined;
    return {
      ok: true,
      email,
      ...(familyName ? { familyName } : {}),
      ...(givenName ? { givenName } : {}),
      nameId,
      nameIdFormat: nameIdElement.getAttribute('Format'),
      sessionIndex: profile.sessionIndex ?? null,
      mfa: classRef !== null && mfaContexts.has(classRef),
      authnContextClassRef: classRef,
      relayState,
      attributes,
    };
  }

  return { idpMetadata, metadataXml, authnRequestUrl, validateAcsPost, urls };
}

export type SamlServiceProvider = ReturnType<typeof samlServiceProvider>;

/** A SubjectConfirmationData within its NotBefore (if any) and NotOnOrAfter (required), give or take the skew. */
function inTime(data: Element): boolean {
  const now = Date.now();
  const notBefore = Date.parse(data.getAttribute('NotBefore') ?? '');
  const notOnOrAfter = Date.parse(data.getAttribute('NotOnOrAfter') ?? '');
  return Number.isFinite(notOnOrAfter) && now < notOnOrAfter + CLOCK_SKEW_MS && !(Number.isFinite(notBefore) && now + CLOCK_SKEW_MS < notBefore);
}

const firstString = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined);

/** The e-mail's domain is one the organisation verified (exactly: a subdomain is a domain of its own). */
async function atVerifiedDomain(db: Db, organizationId: number, email: string): Promise<boolean> {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const row = await db
    .selectFrom('ssoDomains')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('domain', '=', domain)
    .where('verifiedAt', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Drops requests and assertion ids past their expiry (each sign-in's start does it: no job needed). */
export async function pruneExpired(db: Db): Promise<void> {
  await db.deleteFrom('samlRequests').where('expiresAt', '<=', sql<Date>`now()`).execute();
  await db.deleteFrom('samlAssertions').where('expiresAt', '<=', sql<Date>`now()`).execute();
}

/** An unguessable RelayState for a new request (the caller may use its own, 16–80 URL-safe characters). */
export const newRelayState = () => randomBytes(24).toString('base64url');
