/** An IdP's SAML metadata (issue 45): entity, redirect URL, every signing certificate with its expiry; DOCTYPE refused. */
import { expect } from 'chai';
import { MetadataError, parseIdpMetadata, type MetadataProblem } from '../../../src/server/saml/idpMetadata.js';
import { IDP_ENTITY_ID, IDP_SSO_URL, idpMetadataXml, testIdpKey, type TestIdpKey } from './testIdp.js';

function problem(xml: string): MetadataProblem {
  try {
    parseIdpMetadata(xml);
  } catch (error) {
    if (error instanceof MetadataError) return error.problem;
    throw error;
  }
  throw new Error('the metadata was taken');
}

describe('IdP SAML metadata (issue 45)', () => {
  let current: TestIdpKey;
  let next: TestIdpKey;
  const nextExpiry = new Date(Date.UTC(2031, 0, 31));
  before(async function () {
    this.timeout(30_000);
    [current, next] = await Promise.all([testIdpKey(), testIdpKey({ notAfter: nextExpiry })]);
  });

  it('reads the entity ID, the HTTP-Redirect single sign-on URL and both signing certificates of a rollover with their expiry', () => {
    const metadata = parseIdpMetadata(idpMetadataXml([current.certificate, next.certificate]));
    expect(metadata.entityId).to.equal(IDP_ENTITY_ID);
    expect(metadata.ssoUrl).to.equal(IDP_SSO_URL);
    expect(metadata.signingCertificates).to.have.length(2);
    expect(metadata.signingCertificates[1]!.notAfter.toISOString()).to.equal(nextExpiry.toISOString());
    expect(metadata.signingCertificates[0]!.pem).to.match(/^-----BEGIN CERTIFICATE-----/);
    expect(metadata.signingCertificates[0]!.fingerprint256).to.match(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('refuses a DOCTYPE, with or without entities', () => {
    const xml = idpMetadataXml([current.certificate]);
    expect(problem(xml.replace('<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "http://169.254.169.254/">]>'))).to.equal('doctype');
    expect(problem(xml.replace('<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE md:EntityDescriptor>'))).to.equal('doctype');
  });

  it('refuses what is not an IdP\'s metadata: malformed, no IdP, no redirect binding, no certificate, a broken certificate', () => {
    const xml = idpMetadataXml([current.certificate]);
    expect(problem('<md:EntityDescriptor')).to.equal('malformed');
    expect(problem(xml.replace(/IDPSSODescriptor/g, 'SPSSODescriptor'))).to.equal('noIdp');
    expect(problem(xml.replace('bindings:HTTP-Redirect', 'bindings:HTTP-Artifact'))).to.equal('noRedirectBinding');
    expect(problem(idpMetadataXml([]))).to.equal('noSigningCertificate');
    expect(problem(xml.replace(/<ds:X509Certificate>[^<]+/, '<ds:X509Certificate>AAAA'))).to.equal('badCertificate');
  });

  it('refuses metadata larger than the cap', () => {
    expect(problem(idpMetadataXml([current.certificate]) + ' '.repeat(1024 * 1024))).to.equal('tooLarge');
  });
});
