/**
 * The scopes of the organisation's own API clients (issue 46): the one list. A client holds some of them; each
 * /api/v2 route open to clients declares the one it needs (its route config `scope`, api/clientAuth.ts), and the
 * authorisation matrix has a column of them (test/server/api/authorizationMatrix.test.ts). A route that declares
 * none is not open to clients at all.
 */
export const API_CLIENT_SCOPES = ['subscriptions:read', 'subscriptions:write', 'learners:read', 'learners:write', 'contacts:read', 'audit:read'] as const;

export type ApiClientScope = (typeof API_CLIENT_SCOPES)[number];

export function isApiClientScope(value: unknown): value is ApiClientScope {
  return (API_CLIENT_SCOPES as readonly unknown[]).includes(value);
}

/** What each scope allows, as the API document says it (the OAuth 2.0 security scheme, api/openapi.ts). */
export const API_CLIENT_SCOPE_DESCRIPTIONS = {
  'subscriptions:read': "read the organisation's applications (corporate subscriptions)",
  'subscriptions:write': 'apply, change and cancel applications',
  'learners:read': "read the organisation's learners (list, CSV, one learner)",
  'learners:write': "change learners: a learner's nameId, the CSV preview and bulk update",
  'contacts:read': 'read the contacts and billing contacts',
  'audit:read': 'read and export the audit trail (Activity log)',
} as const satisfies Record<ApiClientScope, string>;
