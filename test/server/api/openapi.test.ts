import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { API_CLIENT_SCOPES } from '../../../src/common/apiScopes.js';
import { API_ERROR, FIELD_ERROR } from '../../../src/common/errorCodes.js';
import { loadFormSchemas } from '../../../src/configuration/load.js';
import { ROUTE_SCOPES } from '../../../src/server/api/clientAuth.js';
import { formComponentId, TAG } from '../../../src/server/api/openapi.js';
import { useTestApp } from '../support/testApp.js';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: { $ref?: string; oneOf?: { $ref: string }[] } }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: { $ref?: string; properties?: { error?: { enum?: string[] } } } }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>; securitySchemes: Record<string, { name: string }> };
}

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([url, methods]) => Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${url}`, url, operation })));

const errorCodes = (operation: Operation, status: number) => operation.responses[status]?.content?.['application/json']?.schema.properties?.error?.enum;

/** Admin-token operations: every route of a signed-in admin (SPEC §7 General). */
const SIGNED_IN = [
  'GET /api/v2/admins/me/affiliations',
  'GET /api/v2/admin/re_authentication_expiration',
  'GET /api/v2/admins/me/two_step',
  'POST /api/v2/admins/me/two_step/enrolment_link',
  'GET /api/v2/organizations/{orgId}/sign_in_rule',
  'PUT /api/v2/organizations/{orgId}/sign_in_rule',
  'GET /api/v2/organizations/{orgId}/overview',
  'GET /api/v2/admins/me/notification_settings',
  'PUT /api/v2/admins/me/notification_settings',
  'GET /api/v2/organizations/{orgId}/corporate_subscriptions/{requestCode}/calendar',
  'POST /api/v2/admins/me/authenticator_app',
  'PUT /api/v2/admins/me/authenticator_app',
  'DELETE /api/v2/admins/me/authenticator_app',
  'POST /api/v2/admins/me/recovery_codes',
  'POST /api/v2/admins/me/passkeys/registration_options',
  'POST /api/v2/admins/me/passkeys',
  'PATCH /api/v2/admins/me/passkeys/{id}',
  'DELETE /api/v2/admins/me/passkeys/{id}',
  'PUT /api/v2/admins/{adminId}/password',
  'PATCH /api/v2/organizations/{orgId}/affiliations/admins/{adminId}',
  'GET /api/v2/organizations/{orgId}/affiliations',
  'POST /api/v2/organizations/{orgId}/affiliations',
  'DELETE /api/v2/organizations/{orgId}/affiliations/admins/{adminId}',
  'POST /api/v2/organizations/{orgId}/affiliations/admins/{adminId}/invitation',
  'GET /api/v2/organizations/{orgId}/product_admin_roles',
  'GET /api/v2/organizations/{orgId}/contacts',
  'GET /api/v2/organizations/{orgId}/contacts/{id}',
  'POST /api/v2/organizations/{orgId}/contacts',
  'PATCH /api/v2/organizations/{orgId}/contacts/{id}',
  'DELETE /api/v2/organizations/{orgId}/contacts/{id}',
  'GET /api/v2/organizations/{orgId}/billing_contacts',
  'GET /api/v2/organizations/{orgId}/billing_contacts/{id}',
  'POST /api/v2/organizations/{orgId}/billing_contacts',
  'PATCH /api/v2/organizations/{orgId}/billing_contacts/{id}',
  'DELETE /api/v2/organizations/{orgId}/billing_contacts/{id}',
  'GET /api/v2/organizations/{orgId}/corporate_subscriptions',
  'GET /api/v2/organizations/{orgId}/corporate_subscriptions/{requestCode}',
  'POST /api/v2/organizations/{orgId}/corporate_subscriptions',
  'PATCH /api/v2/organizations/{orgId}/corporate_subscriptions/{requestCode}',
  'PATCH /api/v2/organizations/{orgId}/confirmed_corporate_subscriptions/{requestCode}',
  'DELETE /api/v2/organizations/{orgId}/corporate_subscriptions/{requestCode}',
  'GET /api/v2/organizations/{orgId}/users',
  'GET /api/v2/organizations/{orgId}/users/csv',
  'GET /api/v2/organizations/{orgId}/audit_events',
  'GET /api/v2/organizations/{orgId}/audit_events/csv',
  'GET /api/v2/organizations/{orgId}/users/{userId}',
  'PATCH /api/v2/organizations/{orgId}/users/{userId}',
  'POST /api/v2/organizations/{orgId}/users/preview',
  'POST /api/v2/organizations/{orgId}/users/bulk_update',
  'GET /api/v2/organizations/{orgId}/sso_connections',
  'POST /api/v2/organizations/{orgId}/sso_connections',
  'GET /api/v2/organizations/{orgId}/sso_connections/{connectionId}',
  'PATCH /api/v2/organizations/{orgId}/sso_connections/{connectionId}',
  'DELETE /api/v2/organizations/{orgId}/sso_connections/{connectionId}',
  'POST /api/v2/organizations/{orgId}/sso_connections/{connectionId}/test',
  'GET /api/v2/organizations/{orgId}/sso_domains',
  'POST /api/v2/organizations/{orgId}/sso_domains',
  'POST /api/v2/organizations/{orgId}/sso_domains/{domainId}/verify',
  'PATCH /api/v2/organizations/{orgId}/sso_domains/{domainId}',
  'DELETE /api/v2/organizations/{orgId}/sso_domains/{domainId}',
  'GET /api/v2/organizations/{orgId}/api_clients',
  'POST /api/v2/organizations/{orgId}/api_clients',
  'PATCH /api/v2/organizations/{orgId}/api_clients/{clientId}',
  'DELETE /api/v2/organizations/{orgId}/api_clients/{clientId}',
  'POST /api/v2/organizations/{orgId}/api_clients/{clientId}/rotate_secret',
  'GET /api/v2/organizations/{orgId}/webhook_endpoints',
  'POST /api/v2/organizations/{orgId}/webhook_endpoints',
  'PATCH /api/v2/organizations/{orgId}/webhook_endpoints/{endpointId}',
  'DELETE /api/v2/organizations/{orgId}/webhook_endpoints/{endpointId}',
  'GET /api/v2/organizations/{orgId}/webhook_endpoints/{endpointId}/deliveries',
  'POST /api/v2/organizations/{orgId}/webhook_endpoints/{endpointId}/deliveries/{deliveryId}/resend',
  'POST /api/v2/organizations/{orgId}/webhook_endpoints/{endpointId}/test_events',
  'GET /api/v2/services',
  'GET /api/v2/services/{id}',
  'GET /api/v2/service_groups',
  'GET /api/v2/service_groups/{id}',
  'GET /api/v2/service_groups/{id}/services',
  'GET /api/v2/organizations/{orgId}/project_classes/bundled',
  'GET /api/v2/organizations/{orgId}/projects',
  'GET /api/v2/organizations/{orgId}/projects/{projectCode}',
  'GET /api/v2/organizations/{orgId}/projects/{projectCode}/classes/{projectClassId}',
  'GET /api/v2/organizations/{orgId}/projects/{projectCode}/corporate_subscriptions/{requestCode}',
  'GET /api/v2/enabled_feature_flags/{name}',
  'GET /api/v2/admin/single-sign-on',
  'GET /api/v2/admin/single-sign-on/check',
];

describe('The OpenAPI document (/api/docs/json)', () => {
  const ctx = useTestApp();
  let document: Document;
  before(async () => {
    const response = await ctx.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).to.equal(200);
    document = response.json();
  });

  it('validates as OpenAPI', async () => {
    // the validator dereferences in place: give it a copy
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('a client generator consumes it, and its output type-checks', async function () {
    this.timeout(60_000);
    const source = astToString(await openapiTS(structuredClone(document) as never));
    expect(source).to.include('"/api/v2/admins/me/affiliations"').and.include('RegistrationRequest');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-client-'));
    try {
      const file = path.join(dir, 'api.ts');
      await writeFile(file, source);
      const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022 });
      const problems = ts.getPreEmitDiagnostics(program).map((problem) => ts.flattenDiagnosticMessageText(problem.messageText, '\n'));
      expect(problems).to.deep.equal([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('holds only the API and health: not the identity provider, the pages or /dev', () => {
    for (const url of Object.keys(document.paths)) expect(url, url).to.match(/^\/(api\/v2\/|api\/v1\/notices$|healthz$|readyz$)/);
    expect(document.paths).to.include.keys('/api/v2/admins/me/affiliations', '/api/v1/notices', '/healthz');
  });

  it('gives every operation a summary and tags of the declared areas', () => {
    const areas = Object.values(TAG) as string[];
    for (const { name, operation } of operations(document)) {
      expect(operation.summary, name).to.be.a('string').and.not.equal('');
      expect(operation.tags, name).to.be.an('array').that.is.not.empty;
      for (const tag of operation.tags!) expect(areas, `${name}: ${tag}`).to.include(tag);
    }
  });

  it('lists the errors every API operation can answer, with their codes as an enum', () => {
    for (const { name, operation } of operations(document).filter(({ url }) => url.startsWith('/api/'))) {
      expect(errorCodes(operation, 400), name).to.include(API_ERROR.badRequest);
      expect(errorCodes(operation, 500), name).to.deep.equal([API_ERROR.internal]);
      expect(errorCodes(operation, 503), name).to.deep.equal([API_ERROR.maintenance]);
      for (const [status, answer] of Object.entries(operation.responses)) expect(answer.description, `${name} ${status}`).to.be.a('string').and.not.equal('');
    }
    const passwordChange = document.paths['/api/v2/admins/{adminId}/password']!.put!;
    expect(errorCodes(passwordChange, 400)).to.have.members([API_ERROR.badRequest, API_ERROR.currentPasswordMismatch]);
    const activationMail = document.paths['/api/v2/admin/account_activation_email']!.post!;
    expect(errorCodes(activationMail, 429)).to.deep.equal([API_ERROR.tooManyRequests]);
    expect(errorCodes(activationMail, 409)).to.deep.equal([API_ERROR.alreadyActivated]);
    expect(errorCodes(document.paths['/api/v2/organizations/{orgId}/affiliations/admins/{adminId}']!.patch!, 403)).to.have.members([
      API_ERROR.forbidden,
      API_ERROR.reauthenticationExpired,
      API_ERROR.mfaRequired,
    ]);
    const memberships = '/api/v2/organizations/{orgId}/affiliations';
    expect(errorCodes(document.paths[`${memberships}/admins/{adminId}`]!.delete!, 409)).to.deep.equal([API_ERROR.adminAlreadyDeleted]);
    expect(errorCodes(document.paths[`${memberships}/admins/{adminId}/invitation`]!.post!, 409)).to.have.members([API_ERROR.adminAlreadyDeleted, API_ERROR.alreadyActivated]);
    expect(errorCodes(document.paths[`${memberships}/admins/{adminId}/invitation`]!.post!, 429)).to.deep.equal([API_ERROR.tooManyRequests]);
    expect(document.paths[memberships]!.post!.responses).to.include.keys('201', '304', '403', '422');
  });

  it('answers 422 field errors wherever a body, params or query is validated', () => {
    const fieldErrors = document.components.schemas.FieldErrors as { properties: { errors: { items: { properties: { code: { enum: string[] } } } } } };
    expect(fieldErrors.properties.errors.items.properties.code.enum).to.have.members(Object.values(FIELD_ERROR));
    for (const name of ['POST /api/v2/registration_requests', 'PUT /api/v2/admins/{adminId}', 'GET /api/v2/services', 'GET /api/v1/notices']) {
      const { operation } = operations(document).find((candidate) => candidate.name === name)!;
      expect(operation.responses[422]?.content?.['application/json']?.schema, name).to.deep.equal({ $ref: '#/components/schemas/FieldErrors' });
    }
  });

  // issue 46: the organisation's API clients, OAuth 2.0 client credentials; an operation open to them names its scope
  it('has the API clients\' client-credentials scheme with the one scope list, and each operation open to clients its scope (api/clientAuth.ts ROUTE_SCOPES)', () => {
    const scheme = document.components.securitySchemes.apiClient as unknown as { type: string; flows: { clientCredentials: { tokenUrl: string; scopes: Record<string, string> } } };
    expect(scheme.type).to.equal('oauth2');
    expect(scheme.flows.clientCredentials.tokenUrl).to.equal('/oidc/token');
    expect(Object.keys(scheme.flows.clientCredentials.scopes)).to.deep.equal([...API_CLIENT_SCOPES]);
    const declared = Object.fromEntries([...ROUTE_SCOPES].map(([route, scope]) => [route.replace(/:(\w+)/g, '{$1}'), scope]));
    for (const { name, operation } of operations(document)) {
      const client = operation.security?.find((requirement) => 'apiClient' in requirement) as Record<string, string[]> | undefined;
      expect(client?.apiClient, name).to.deep.equal(declared[name] ? [declared[name]] : undefined);
      if (declared[name]) expect(errorCodes(operation, 403), name).to.include(API_ERROR.insufficientScope);
    }
  });

  it('applies the admin token scheme to exactly the signed-in operations, with their 401 codes', () => {
    expect(document.components.securitySchemes.adminAuth).to.include({ name: 'x-v2-admin-auth-token', in: 'header' });
    for (const { name, operation } of operations(document)) {
      const signedIn = SIGNED_IN.includes(name);
      expect(operation.security?.some((requirement) => 'adminAuth' in requirement) ?? false, name).to.equal(signedIn);
      if (signedIn) expect(errorCodes(operation, 401), name).to.include.members([API_ERROR.invalidAccessToken, API_ERROR.accessTokenExpired]);
    }
  });

  it('applies the activation and reset token schemes to the operations that read those headers', () => {
    const schemes = (name: string) => operations(document).find((candidate) => candidate.name === name)!.operation.security?.flatMap((requirement) => Object.keys(requirement));
    expect(document.components.securitySchemes.activateToken!.name).to.equal('x-v2-admin-activate-token');
    expect(document.components.securitySchemes.resetPasswordToken!.name).to.equal('x-v2-admin-reset-password-token');
    expect(schemes('GET /api/v2/admin/validate_confirm_email_token')).to.deep.equal(['activateToken']);
    expect(schemes('PUT /api/v2/admins/{adminId}')).to.deep.equal(['activateToken']);
    expect(schemes('GET /api/v2/admin/validate_reset_password_token')).to.deep.equal(['resetPasswordToken']);
    expect(schemes('POST /api/v2/admins/{adminId}/password')).to.deep.equal(['resetPasswordToken']);
    expect(schemes('POST /api/v2/admin/account_activation_email')).to.equal(undefined);
  });

  it("applies the partner's HTTP Basic scheme to the single-sign-on verify call", () => {
    const verify = operations(document).find((candidate) => candidate.name === 'POST /api/v2/single-sign-on/verify')!.operation;
    expect(verify.security?.flatMap((requirement) => Object.keys(requirement))).to.deep.equal(['partnerAuth']);
    expect(document.components.securitySchemes.partnerAuth).to.include({ type: 'http', scheme: 'basic' });
    expect(errorCodes(verify, 401)).to.include.members([API_ERROR.invalidClient, API_ERROR.invalidSignature, API_ERROR.tokenExpired, API_ERROR.tokenUsed, API_ERROR.invalidToken]);
  });

  it("documents a single-sign-on connection's answer in snake_case: what to register at the IdP, the client secret only as client_secret_set (issue 45)", () => {
    const created = document.paths['/api/v2/organizations/{orgId}/sso_connections']!.post!.responses['201']!.content!['application/json']!.schema as { properties: Record<string, { properties: Record<string, unknown> }> };
    const connection = created.properties.sso_connection!.properties;
    expect(connection).to.include.keys('id', 'protocol', 'name', 'state', 'redirect_uri', 'sp_entity_id', 'acs_url', 'sp_metadata_url', 'client_secret_set', 'attribute_mapping', 'etag');
    expect(connection).to.not.have.any.keys('client_secret', 'client_secret_encrypted');
    const verify = document.paths['/api/v2/organizations/{orgId}/sso_domains/{domainId}/verify']!.post!;
    const domain = (verify.responses['200']!.content!['application/json']!.schema as { properties: Record<string, { properties: Record<string, unknown> }> }).properties.sso_domain!.properties;
    expect(domain).to.include.keys('id', 'domain', 'verified', 'txt_record', 'connection_id', 'require_sso');
    expect(verify.responses[422]?.content?.['application/json']?.schema).to.deep.equal({ $ref: '#/components/schemas/FieldErrors' });
    expect(errorCodes(document.paths['/api/v2/organizations/{orgId}/sso_domains/{domainId}']!.patch!, 403)).to.include.members([API_ERROR.forbidden, API_ERROR.federatedSessionRequired]);
  });

  it('refers every form body to a component rendered from its schemas/ file (snake_case, same rules)', () => {
    const forms = loadFormSchemas();
    // a body is one form ($ref) or a choice of forms (oneOf of $refs); every form of schemas/ is some operation's body
    const referenced = operations(document).flatMap(({ operation }) => {
      const schema = operation.requestBody?.content['application/json']?.schema;
      return [schema?.$ref, ...(schema?.oneOf ?? []).map((choice) => choice.$ref)].filter((ref): ref is string => ref !== undefined);
    });
    for (const name of Object.keys(forms)) expect(referenced, name).to.include(`#/components/schemas/${formComponentId(name)}`);
    expect(document.paths['/api/v2/organizations/{orgId}/affiliations/admins/{adminId}']!.patch!.requestBody!.content['application/json']!.schema).to.deep.equal({
      oneOf: [{ $ref: '#/components/schemas/AdminName' }, { $ref: '#/components/schemas/AffiliationRole' }],
    });
    const role = document.components.schemas.AffiliationInvite!.properties!.role as { oneOf: { const: string; title: string }[]; default: string };
    expect(role.default).to.equal('member');
    expect(role.oneOf.map((choice) => [choice.const, choice.title])).to.deep.equal([
      ['member', 'Support Admin'],
      ['manager', 'Principal Admin'],
    ]);
    const adminName = document.components.schemas.AdminName!;
    expect(adminName.required).to.deep.equal(['last_name', 'first_name', 'kana_last_name', 'kana_first_name']);
    expect(adminName.properties!.last_name).to.include({ maxLength: (forms['admin-name']!.$defs!.personName as { maxLength: number }).maxLength, title: 'Last name' });
    for (const name of ['ActivationRequest', 'AdminActivation', 'AdminName', 'AffiliationInvite', 'AffiliationRole', 'PasswordChange', 'PasswordResetRequest', 'PasswordReset', 'RegistrationRequest']) {
      expect(document.components.schemas, name).to.have.property(name);
    }
  });
});

describe('API_DOCS=off', () => {
  const ctx = useTestApp({ env: { API_DOCS: 'off' } });

  it('serves neither the document nor the page', async () => {
    for (const url of ['/api/docs/json', '/api/docs/']) {
      const response = await ctx.app.inject({ url, headers: { accept: 'application/json' } });
      expect(response.statusCode, url).to.equal(404);
    }
  });
});
