/**
 * The SAML AuthnContextClassRefs taken by default as a second factor at the usual IdPs (SSO_MFA_CONTEXTS replaces the
 * list): SAML's own multi-factor classes, REFEDS MFA, and Entra ID's. A connection that trusts its IdP's MFA satisfies
 * the organisation's two-step rule only with one of these (issue 45).
 */
export const DEFAULT_MFA_CONTEXTS: readonly string[] = Object.freeze([
  'https://refeds.org/profile/mfa',
  'http://schemas.microsoft.com/claims/multipleauthn',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorUnregistered',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:Smartcard',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI',
]);
