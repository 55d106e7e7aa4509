/**
 * A SAML identity provider made of XML for the tests (issue 45): its key and certificate, its metadata, and
 * responses it signs with xml-crypto (the library node-saml verifies with) — or that a test then tampers with.
 */
import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

export interface TestIdpKey {
  privateKey: string;
  certificate: string;
}

export const IDP_ENTITY_ID = 'https://idp.example.com/saml';
export const IDP_SSO_URL = 'https://idp.example.com/saml/sso';

export async function testIdpKey(options: { notAfter?: Date } = {}): Promise<TestIdpKey> {
  const notBeforeDate = new Date(Date.now() - 24 * 3600 * 1000);
  const notAfterDate = options.notAfter ?? new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'test idp' }], { keySize: 2048, algorithm: 'sha256', notBeforeDate, notAfterDate });
  return { privateKey: pems.private, certificate: pems.cert };
}

const base64Body = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

export function idpMetadataXml(certificates: string[], options: { entityId?: string; extra?: string } = {}): string {
  const keys = certificates
    .map((pem) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${base64Body(pem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`)
    .join('');
  return `<?xml version="1.0"?>${options.extra ?? ''}<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${options.entityId ?? IDP_ENTITY_ID}">`
    + `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}`
    + `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${IDP_SSO_URL}/post"/>`
    + `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${IDP_SSO_URL}"/>`
    + '</md:IDPSSODescriptor></md:EntityDescriptor>';
}

export interface ResponseFields {
  /** The request answered; absent: an unsolicited answer (IdP-initiated). */
  inResponseTo?: string;
  /** The assertion's SubjectConfirmationData's InResponseTo, when it differs from the Response's. */
  subjectInResponseTo?: string;
  acsUrl: string;
  audience: string;
  nameId?: string;
  /** Raw XML of the NameID's content (a comment, say); default the escaped nameId. */
  nameIdXml?: string;
  destination?: string | null;
  recipient?: string;
  issuer?: string;
  assertionId?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  classRef?: string;
  attributes?: Record<string, string>;
}

const iso = (date: Date) => date.toISOString();

export function responseXml(fields: ResponseFields): string {
  const now = Date.now();
  const notBefore = fields.notBefore ?? new Date(now - 60_000);
  const notOnOrAfter = fields.notOnOrAfter ?? new Date(now + 5 * 60_000);
  const issuer = fields.issuer ?? IDP_ENTITY_ID;
  const destination = fields.destination === undefined ? fields.acsUrl : fields.destination;
  const inResponseTo = (id: string | undefined) => (id === undefined ? '' : ` InResponseTo="${id}"`);
  const attributes = Object.entries(fields.attributes ?? {})
    .map(([name, value]) => `<saml:Attribute Name="${name}"><saml:AttributeValue>${value}</saml:AttributeValue></saml:Attribute>`)
    .join('');
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${fields.assertionId ?? `_a${randomUUID()}`}" Version="2.0" IssueInstant="${iso(new Date(now))}">`
    + `<saml:Issuer>${issuer}</saml:Issuer>`
    + `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${fields.nameIdXml ?? fields.nameId ?? 'admin@example.com'}</saml:NameID>`
    + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo(fields.subjectInResponseTo ?? fields.inResponseTo)} NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${fields.recipient ?? fields.acsUrl}"/></saml:SubjectConfirmation></saml:Subject>`
    + `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${fields.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
    + `<saml:AuthnStatement AuthnInstant="${iso(new Date(now))}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>${fields.classRef ?? 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
    + (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '')
    + '</saml:Assertion>';
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(new Date(now))}"`
    + `${destination === null ? '' : ` Destination="${destination}"`}${inResponseTo(fields.inResponseTo)}>`
    + `<saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`
    + assertion
    + '</samlp:Response>';
}

export type Algorithm = 'sha256' | 'sha1';

const SIGNATURE = { sha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', sha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' };
const DIGEST = { sha256: 'http://www.w3.org/2001/04/xmlenc#sha256', sha1: 'http://www.w3.org/2000/09/xmldsig#sha1' };

/** Signs the element `localName` (Assertion or Response) of `xml`, the signature after its Issuer, as IdPs place it. */
export function sign(xml: string, key: TestIdpKey, localName: 'Assertion' | 'Response', algorithm: Algorithm = 'sha256'): string {
  const signer = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificate,
    signatureAlgorithm: SIGNATURE[algorithm],
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: `//*[local-name(.)='${localName}']`,
    digestAlgorithm: DIGEST[algorithm],
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: `//*[local-name(.)='${localName}']/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

export const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** The AuthnRequest's ID in the IdP URL authnRequestUrl answered (HTTP-Redirect: deflated, base64). */
export function requestIdOf(url: string): string {
  const request = new URL(url).searchParams.get('SAMLRequest')!;
  const xml = inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
  return new DOMParser().parseFromString(xml, 'text/xml').documentElement!.getAttribute('ID')!;
}
