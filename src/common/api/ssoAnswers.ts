/**
 * Single sign-on with the customer's own identity provider (issue 45): an organisation's connections and verified
 * e-mail domains, as organizations/{orgId}/sso_connections and …/sso_domains answer them (managers).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { envelope, listEnvelope, objectOf } from './answers.js';

export const SSO_PROTOCOLS = ['saml', 'oidc'] as const;
export const SSO_CONNECTION_STATES = ['draft', 'on', 'paused'] as const;

const etag = { type: 'string', description: "the record's version (its ETag): send it in If-Match to change the record as you saw it" } as const;
const text = (description: string) => ({ type: 'string', description }) as const;
const textOrNull = (description: string) => ({ type: ['string', 'null'], description }) as const;

/** Where the IdP's claims (OIDC) or attributes (SAML) are read from. */
export const attributeMappingSchema = objectOf({
  email: text("the claim or attribute holding the admin's e-mail address (SAML: `nameID` is the assertion's NameID)"),
  familyName: textOrNull("the claim or attribute of the family name; null: not taken from the IdP"),
  givenName: textOrNull('the claim or attribute of the given name; null: not taken from the IdP'),
});
export type AttributeMapping = FromSchema<typeof attributeMappingSchema>;

export const ssoConnectionSchema = objectOf({
  id: { type: 'string', format: 'uuid' },
  protocol: { type: 'string', enum: SSO_PROTOCOLS },
  name: text('what the managers call it'),
  state: { type: 'string', enum: SSO_CONNECTION_STATES, description: 'draft (new), on (used for sign-in), paused' },
  issuer: textOrNull("OpenID Connect: the IdP's issuer URL (its discovery document is under it)"),
  clientId: textOrNull("OpenID Connect: the portal's client id at the IdP"),
  clientSecretSet: { type: 'boolean', description: 'OpenID Connect: a client secret is stored (it is never answered)' },
  idpMetadataUrl: textOrNull("SAML: where the IdP's metadata is fetched from"),
  idpMetadataXml: textOrNull("SAML: the IdP's metadata, as pasted"),
  signingCertificates: {
    type: 'array',
    description: "SAML: the IdP's signing certificates in its metadata (as pasted, else as last fetched from its URL), each with its expiry — two during a rollover; empty for OpenID Connect or metadata not read yet",
    items: objectOf({ notAfter: { type: 'string', format: 'date-time' }, fingerprint: text('its SHA-256 fingerprint, colon-separated hex (as IdP consoles show it)') }),
  },
  attributeMapping: attributeMappingSchema,
  trustIdpMfa: { type: 'boolean', description: "the IdP's multi-factor sign-in satisfies the organisation's two-step rule" },
  jitProvisioning: { type: 'boolean', description: 'a member is created at the first sign-in of an address at a verified domain' },
  idpInitiated: { type: 'boolean', description: 'SAML: sign-ins started at the IdP are accepted' },
  redirectUri: textOrNull('OpenID Connect: the redirect URI to register at the IdP'),
  spEntityId: textOrNull("SAML: the portal's entity ID, to register at the IdP"),
  acsUrl: textOrNull("SAML: the portal's Assertion Consumer Service URL (HTTP-POST), to register at the IdP"),
  spMetadataUrl: textOrNull("SAML: the portal's service-provider metadata"),
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  etag,
});
export type SsoConnection = FromSchema<typeof ssoConnectionSchema>;

export const ssoConnectionsAnswerSchema = listEnvelope('ssoConnections', ssoConnectionSchema);
export type SsoConnectionsAnswer = FromSchema<typeof ssoConnectionsAnswerSchema>;
export const ssoConnectionAnswerSchema = envelope('ssoConnection', ssoConnectionSchema);
export type SsoConnectionAnswer = FromSchema<typeof ssoConnectionAnswerSchema>;

/** 'Test connection': one sign-in through the connection in a new window, shown and not made (issue 45). */
export const ssoConnectionTestAnswerSchema = objectOf({
  testUrl: text('the page to open in a new window: it goes on to the IdP, and shows what the IdP sent; good once, within 5 minutes'),
  expiresAt: { type: 'string', format: 'date-time', description: 'when test_url expires unless opened' },
});
export type SsoConnectionTestAnswer = FromSchema<typeof ssoConnectionTestAnswerSchema>;

export const ssoDomainSchema = objectOf({
  id: { type: 'string', format: 'uuid' },
  domain: text('lower-case; an internationalised domain as punycode'),
  verified: { type: 'boolean' },
  verifiedAt: { type: ['string', 'null'], format: 'date-time' },
  txtRecord: objectOf({
    name: text('the DNS name to publish the TXT record at'),
    value: text('the TXT record to publish'),
  }),
  connectionId: { type: ['string', 'null'], format: 'uuid', description: "the connection its admins sign in through; null: the organisation's only active one" },
  requireSso: { type: 'boolean', description: 'addresses at the domain sign in through single sign-on only' },
  createdAt: { type: 'string', format: 'date-time' },
  etag,
});
export type SsoDomain = FromSchema<typeof ssoDomainSchema>;

export const ssoDomainsAnswerSchema = listEnvelope('ssoDomains', ssoDomainSchema);
export type SsoDomainsAnswer = FromSchema<typeof ssoDomainsAnswerSchema>;
export const ssoDomainAnswerSchema = envelope('ssoDomain', ssoDomainSchema);
export type SsoDomainAnswer = FromSchema<typeof ssoDomainAnswerSchema>;
