/**
 * The API's contract as an OpenAPI 3.1 document (`/api/docs/json`, the page at `/api/docs`), generated from the
 * routes' own schemas by @fastify/swagger:
 * - only the API (/api/v2, /api/v1/notices) and health are in it; the identity provider publishes its own
 *   discovery document, and /dev and the pages are not API;
 * - the form bodies are components made from schemas/ (the same files the validators use), referenced by the routes;
 * - security schemes: the admin's access token and the activation and reset tokens, each applied by the code that
 *   checks it (api/auth.ts, api/adminAccounts.ts);
 * - every operation lists the errors it answers, with their codes as an enum; the answers every route shares are
 *   added by `documentAnswers` rather than repeated in each route.
 */
import { API_CLIENT_SCOPE_DESCRIPTIONS, type ApiClientScope } from '../../common/apiScopes.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { STATUS_CODES } from 'node:http';
import { pascalCase } from 'change-case';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ApiErrorCode } from '../../common/errorCodes.js';
import type { Config } from '../config.js';
import { loadLocales } from '../../configuration/load.js';
import { wireSchema } from '../../configuration/schemaViews.js';
import { errorAnswer, FIELD_ERRORS_ID, fieldErrorsSchema } from './schemas.js';
import { FORM_MARKER, getFormSchemas } from './validation.js';
import { toSnakeKey } from './wire.js';
import { webhookDocuments } from './webhookDocs.js';

/** The SPEC §7 areas the operations are grouped by. */
export const TAG = {
  account: 'Account',
  activationAndReset: 'Activation and reset',
  organisationAdmins: 'Organisation admins',
  contacts: 'Contacts',
  corporateSubscriptions: 'Corporate subscriptions',
  organisationUsers: 'Organisation users (learners)',
  servicesAndClasses: 'Services and classes',
  content: 'Content',
  registration: 'Registration',
  singleSignOn: 'Single sign-on',
  ssoConnections: 'Single sign-on connections',
  apiClients: 'API clients',
  webhooks: 'Webhooks',
  auditTrail: 'Audit trail',
  monitoring: 'Monitoring',
  health: 'Health',
} as const;

const TAG_DESCRIPTIONS: Record<(typeof TAG)[keyof typeof TAG], string> = {
  Account: "The signed-in admin's own account: organisations, password, re-authentication, name",
  'Activation and reset': 'Account activation and password reset by mailed links, and the captcha their mail requests need',
  'Organisation admins': "The admins of the session's organisation",
  Contacts: "The organisation's contacts (delivery addresses) and billing contacts, which applications name (managers)",
  'Corporate subscriptions': "The organisation's applications for services (requestCode): list, one, apply, change, change a confirmed class's learners, cancel (managers)",
  'Organisation users (learners)': "The learners of the session's organisation: list, CSV download, CSV preview and bulk update, one learner's nameId",
  'Services and classes': 'The service catalogue and feature flags',
  Content: "Notices, announcement articles and the portal's runtime settings for the browser",
  Registration: 'Applications for a corporate account',
  'Audit trail': "Who did what, when, in the organisation: every write's record with its changes, listed and exported (managers)",
  'Single sign-on': "Tokens that forward the signed-in admin to a partner product, and the partner's one-time check of them",
  'Single sign-on connections': "The organisation's connections to its own identity provider (SAML 2.0, OpenID Connect) and the e-mail domains, verified by DNS, whose admins sign in through them (managers)",
  'API clients': "The organisation's own API clients (OAuth 2.0 client credentials at /oidc/token): their names, scopes, expiry and secrets (managers)",
  Webhooks: "The organisation's webhook endpoints: signed Standard Webhooks deliveries of its events, retried, listed, resent (managers)",
  Monitoring: 'Error reports from the browser',
  Health: 'Liveness and readiness for load balancers',
};

/** Security requirements, by the header that carries the credential. */
export const SECURITY = {
  admin: [{ adminAuth: [] }],
  activateToken: [{ activateToken: [] }],
  resetPasswordToken: [{ resetPasswordToken: [] }],
  partner: [{ partnerAuth: [] }],
} as const;

/** A route open to the organisation's API clients (issue 46): an admin's token, or a client's token with the route's scope. */
export const adminOrClient = (scope: ApiClientScope) => [...SECURITY.admin, { apiClient: [scope] }];

const SECURITY_SCHEMES = {
  adminAuth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-v2-admin-auth-token',
    description: "`Bearer {access token}`: the identity provider's access token (SPEC §7 General; /oidc/.well-known/openid-configuration)",
  },
  activateToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-v2-admin-activate-token',
    description: '`Bearer {token}`: the token of the activation link (/admins/{adminId}/activate/{token})',
  },
  resetPasswordToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-v2-admin-reset-password-token',
    description: '`Bearer {token}`: the token of the password-reset link (/password/reset?token=…)',
  },
  partnerAuth: {
    type: 'http',
    scheme: 'basic',
    description: "A partner product's code and shared secret (README 'Single-sign-on gateway')",
  },
  apiClient: {
    type: 'oauth2',
    description:
      "An organisation's own API client (issue 46; a manager makes it on the 'API access' page): `Authorization: Bearer {access token}` from POST /oidc/token with grant_type=client_credentials and the client's id and secret (HTTP Basic, client_secret_basic), a 15-minute JWT (RFC 9068). Each operation names the scope it needs; the organisation is the client's own. Outside its scopes 403 insufficient_scope; each client's calls are limited (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset; 429 with Retry-After).",
    flows: { clientCredentials: { tokenUrl: '/oidc/token', scopes: API_CLIENT_SCOPE_DESCRIPTIONS } },
  },
} as const;

const DOCUMENTED_PATHS = /^\/(?:api\/v[12]\/|healthz$|readyz$)/;

type Answers = Record<string, unknown>;

/**
 * An onRoute hook completing what a route documents it answers: `errors` (merged into the route's own error
 * enums), 422 field errors when anything of the request is validated, and `security`.
 */
export function documentAnswers(errors: Partial<Record<number, readonly ApiErrorCode[]>>, security?: readonly object[]) {
  return (route: RouteOptions): void => {
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    const response: Answers = { ...((schema.response as Answers | undefined) ?? {}) };
    for (const [status, codes] of Object.entries(errors)) {
      const own = response[status] as { properties?: { error?: { enum?: ApiErrorCode[] } } } | undefined;
      response[status] = errorAnswer([...(own?.properties?.error?.enum ?? []), ...codes!]);
    }
    if ((schema.body || schema.params || schema.querystring) && !response[422]) response[422] = { $ref: `${FIELD_ERRORS_ID}#` };
    // the answer's description in the document: the status's own words where the route gave none
    for (const [status, answer] of Object.entries(response)) {
      if (!(answer as { description?: string; $ref?: string }).description && !(answer as { $ref?: string }).$ref) {
        response[status] = { description: STATUS_CODES[status], ...(answer as object) };
      }
    }
    schema.response = response;
    if (security) schema.security = security;
  };
}

/** The component name of a form: `RegistrationRequest` for schemas/registration-request.json. */
export function formComponentId(name: string): string {
  return pascalCase(name);
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } }>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The form bodies as components, in their wire rendering, made from schemas/ (the files the validators use):
 * each operation that receives a form (its body schema carries the form marker) refers to its component.
 */
function referToForms(document: OpenApiDocument): OpenApiDocument {
  const schemas = (document.components ??= {}).schemas ??= {};
  const english = englishText();
  for (const [name, schema] of Object.entries(getFormSchemas())) schemas[formComponentId(name)] = wireSchema(schema, toSnakeKey, english);
  for (const operation of Object.values(document.paths ?? {}).flatMap((path) => Object.values(path))) {
    for (const media of Object.values(operation.requestBody?.content ?? {})) {
      const form = media.schema?.[FORM_MARKER];
      const reference = (name: string) => ({ $ref: `#/components/schemas/${formComponentId(name)}` });
      if (typeof form === 'string') media.schema = reference(form);
      // a choice of forms (formBody('admin-name', 'affiliation-role')): one of the components
      else if (Array.isArray(form)) media.schema = { oneOf: form.map((name) => reference(String(name))) };
    }
  }
  return document;
}

/** Titles and descriptions of the form schemas are locale keys: the document shows their English text. */
function englishText(): (key: string) => string | undefined {
  const { en } = loadLocales();
  return (key) => {
    const text = key.split('.').reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), en);
    return typeof text === 'string' ? text : undefined;
  };
}

/** Shared schemas (the form bodies, the field errors) and the document; the page at /api/docs when enabled. */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  app.addSchema(fieldErrorsSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Corporate admin portal API',
        description:
          'JSON keys are snake_case on the wire. Form bodies are validated with the form schema files of schemas/ (the same rules as the browser). ' +
          'Errors: `{"error": code}`, or 422 `{"errors": [{field, code, meta}]}` for fields.',
        version: '2',
      },
      servers: [{ url: config.publicUrl }],
      tags: Object.values(TAG).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
      components: { securitySchemes: SECURITY_SCHEMES },
      // the events an organisation's webhook endpoints receive (issue 46); plain JSON Schema (the plugin's types want openapi-types')
      webhooks: webhookDocuments() as never,
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`) },
    transform: ({ schema, url }) => ({ schema: DOCUMENTED_PATHS.test(url) ? schema : { ...schema, hide: true }, url }),
    // registered with `openapi` options, the document is always the OpenAPI object
    transformObject: (documentObject) => referToForms((documentObject as { openapiObject: OpenApiDocument }).openapiObject) as never,
  });
  if (config.apiDocs) await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: DOCS_CSP });
}

/**
 * The API documentation page only: Swagger UI applies inline styles (verified in chromium: blocked otherwise), so styles may be
 * inline there; scripts stay 'self' (the page has no inline script and needs no eval).
 */
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
