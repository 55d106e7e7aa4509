/**
 * An IdP's SAML metadata (issue 45): its entityID, its single sign-on URL for the HTTP-Redirect binding and its
 * signing certificates — all of them: during a rollover the metadata names the old and the new key, and a response
 * signed by either is accepted — each with its expiry (the page shows it; the reminders mail before it).
 * Parsed with xmldom (the parser node-saml uses); a DOCTYPE (entities, external or expanding) is refused outright.
 */
import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';

export const MD_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** The most characters of metadata taken (an IdP's is a few KB; a federation's aggregate is not an IdP's). */
export const MAX_METADATA_CHARS = 1024 * 1024;

export interface SigningCertificate {
  /** PEM. */
  pem: string;
  notAfter: Date;
  /** SHA-256 fingerprint, colon-separated hex (what IdPs' consoles show). */
  fingerprint256: string;
}

export interface IdpMetadata {
  entityId: string;
  /** The SingleSignOnService location for the HTTP-Redirect binding. */
  ssoUrl: string;
  signingCertificates: SigningCertificate[];
}

export type MetadataProblem = 'tooLarge' | 'malformed' | 'doctype' | 'noIdp' | 'noRedirectBinding' | 'noSigningCertificate' | 'badCertificate';

export class MetadataError extends Error {
  constructor(readonly problem: MetadataProblem) {
    super(`IdP metadata refused: ${problem}`);
    this.name = 'MetadataError';
  }
}

/** Parses XML with xmldom: any error or warning refuses it, and so does a DOCTYPE (no entity is ever expanded). */
export function parseXmlStrict(xml: string): Document {
  let failed = false;
  const fail = () => {
    failed = true;
  };
  const doc = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(xml, 'text/xml') as unknown as Document;
  if (failed || !doc?.documentElement) throw new MetadataError('malformed');
  for (let node = doc.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 10 /* DOCUMENT_TYPE_NODE */) throw new MetadataError('doctype');
  }
  return doc;
}

const children = (parent: Element, ns: string, name: string): Element[] =>
  Array.from(parent.childNodes as unknown as ArrayLike<Node>).filter((node): node is Element => node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === name);

function certificate(base64: string): SigningCertificate {
  const der = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  try {
    const x509 = new X509Certificate(der);
    const pem = x509.toString().trim();
    return { pem, notAfter: new Date(x509.validTo), fingerprint256: x509.fingerprint256 };
  } catch {
    throw new MetadataError('badCertificate');
  }
}

/** The IdP's metadata from its XML (an EntityDescriptor, or an EntitiesDescriptor holding exactly one IdP). */
export function parseIdpMetadata(xml: string): IdpMetadata {
  if (xml.length > MAX_METADATA_CHARS) throw new MetadataError('tooLarge');
  const doc = parseXmlStrict(xml);
  const entities = Array.from(doc.getElementsByTagNameNS(MD_NS, 'EntityDescriptor') as unknown as ArrayLike<Element>).filter(
    (entity) => children(entity, MD_NS, 'IDPSSODescriptor').length > 0,
  );
  if (entities.length !== 1) throw new MetadataError('noIdp');
  const entity = entities[0]!;
  const entityId = entity.getAttribute('entityID') ?? '';
  const idp = children(entity, MD_NS, 'IDPSSODescriptor')[0]!;
  if (!entityId) throw new MetadataError('noIdp');
  const ssoUrl = children(idp, MD_NS, 'SingleSignOnService').find((service) => service.getAttribute('Binding') === HTTP_REDIRECT)?.getAttribute('Location');
  if (!ssoUrl || !/^https?:\/\//.test(ssoUrl)) throw new MetadataError('noRedirectBinding');
  // a KeyDescriptor without `use` is for signing and encryption both (SAML metadata §2.4.1.1)
  const signingCertificates = children(idp, MD_NS, 'KeyDescriptor')
    .filter((key) => (key.getAttribute('use') ?? 'signing') === 'signing' || key.getAttribute('use') === '')
    .flatMap((key) => children(key, DSIG_NS, 'KeyInfo'))
    .flatMap((info) => children(info, DSIG_NS, 'X509Data'))
    .flatMap((data) => children(data, DSIG_NS, 'X509Certificate'))
    .map((element) => certificate(element.textContent ?? ''));
  if (signingCertificates.length === 0) throw new MetadataError('noSigningCertificate');
  const unique = [...new Map(signingCertificates.map((cert) => [cert.fingerprint256, cert])).values()];
  return { entityId, ssoUrl, signingCertificates: unique };
}
