/**
 * Single sign-on with the customer's own identity provider (issue 45), set up by the organisation's managers — not
 * the single-sign-on GATEWAY to partner products (api/singleSignOn.ts):
 *
 *   GET    organizations/{orgId}/sso_connections                      → {ssoConnections} (at most 20, oldest first)
 *   POST   organizations/{orgId}/sso_connections                      {protocol, name, …} → 201 {ssoConnection}, a draft
 *   GET    organizations/{orgId}/sso_connections/{connectionId}       → {ssoConnection}
 *   PATCH  organizations/{orgId}/sso_connections/{connectionId}       {…settings, state: on|paused} → {ssoConnection}
 *   DELETE organizations/{orgId}/sso_connections/{connectionId}       → 204
 *   POST   organizations/{orgId}/sso_connections/{connectionId}/test  → 201 {testUrl}: a one-time page that tests it
 *   GET    organizations/{orgId}/sso_domains                          → {ssoDomains} (at most 50, oldest first)
 *   POST   organizations/{orgId}/sso_domains                          {domain} → 201 {ssoDomain}, its TXT record to publish
 *   POST   organizations/{orgId}/sso_domains/{domainId}/verify        → {ssoDomain}, verified by its TXT record (else 422)
 *   PATCH  organizations/{orgId}/sso_domains/{domainId}               {connection_id, require_sso} → {ssoDomain}
 *   DELETE organizations/{orgId}/sso_domains/{domainId}               → 204
 *
 * Who: the organisation's managers (the session's organisation; members and others 403); an id the organisation does
 * not have answers 404. Every write is in the trail (sso.*) and every changeable record answers its ETag, which a
 * PATCH or DELETE with If-Match must still match (412; 428 under IF_MATCH_REQUIRED), as contacts do.
 *
 * A connection's client secret is never answered (`client_secret_set`). An issuer or metadata URL is https to a public
 * address (domain/publicAddresses.ts); in demo mode http and loopback addresses too, where tests start their IdPs.
 * Requiring single sign-on for a domain needs a session signed in through single sign-on within the last 10 minutes
 * (the access token's amr has `fed`), so that nobody locks the organisation out with a connection that does not work.
 */
import type { FastifyPluginAsync, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import {
  ssoConnectionAnswerSchema,
  ssoConnectionsAnswerSchema,
  ssoConnectionTestAnswerSchema,
  ssoDomainAnswerSchema,
  ssoDomainsAnswerSchema,
} from '../../common/api/ssoAnswers.js';
import type { FormName } from '../../common/api/forms.js';
import type { SsoProtocol } from '../db/types.js';
import type { AuditAction } from '../../common/auditActions.js';
import { API_ERROR, FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import { customerUrlProblem } from '../domain/publicAddresses.js';
import {
  createConnection,
  deleteConnection,
  findConnection,
  listConnections,
  MAX_CONNECTIONS,
  missingForSignIn,
  shownConnection,
  updateConnection,
  type ConnectionChange,
  type NewConnection,
  type SsoWrite,
} from '../domain/ssoConnections.js';
import { createAdapterClass } from '../idp/adapter.js';
import { issueConnectionTest } from '../idp/connectionTestTicket.js';
import { addDomain, changeDomain, deleteDomain, listDomains, MAX_DOMAINS, normalizeDomain, txtResolver, verifyDomain, type DomainChange } from '../domain/ssoDomains.js';
import { auditOf } from './audit.js';
import { isReauthenticationExpired, requireManager, signedIn, useAuthentication, type SignedInAdmin } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { conditionalWrite, etagHeader, preconditionOf, sendEtag, writtenRecord } from './preconditions.js';
import { errorAnswers, organizationParams, wire, type OrganizationParams } from './schemas.js';
import { BadRequestError, createValidatorCompiler, formBody, FormValidationError, getFormSchemas, validateForm } from './validation.js';
import { wireField } from './wire.js';

/** How recent a single-sign-on sign-in must be to require single sign-on (issue 45: within the last 10 minutes). */
export const FEDERATED_SIGN_IN_WINDOW_SECONDS = 600;

const orgId = organizationParams.properties.orgId;
const uuid = { type: 'string', format: 'uuid' } as const;
const connectionParams = { type: 'object', additionalProperties: false, properties: { orgId, connectionId: uuid }, required: ['orgId', 'connectionId'] } as const;
const domainParams = { type: 'object', additionalProperties: false, properties: { orgId, domainId: uuid }, required: ['orgId', 'domainId'] } as const;
type ConnectionParams = FromSchema<typeof connectionParams>;
type DomainParams = FromSchema<typeof domainParams>;

/**
 * The bodies are the /sso page's forms (DESIGN §3.1): a new connection is the form of its protocol, a change the edit
 * form of the protocol its fields belong to, with or without a state change (the page's Turn on and Pause).
 */
const CREATE_FORMS = { oidc: 'sso-oidc-connection', saml: 'sso-saml-connection' } as const satisfies Record<SsoProtocol, FormName>;
const EDIT_FORMS = { oidc: 'sso-oidc-connection-edit', saml: 'sso-saml-connection-edit' } as const satisfies Record<SsoProtocol, FormName>;
const STATE_FORM = 'sso-connection-state' satisfies FormName;

const fieldsOf = (form: FormName) => Object.keys((getFormSchemas()[form]!.properties ?? {}) as Record<string, unknown>);

/**
 * Validates a connection body (camelCase) against the form of its protocol: the protocol sent, else the protocol whose
 * own fields it carries; the other protocol's fields are refused (invalid) rather than dropped. A `state` is the state
 * form's, validated apart, so that a change may turn the connection on at once.
 */
function connectionBody(forms: Record<SsoProtocol, FormName>, withState: boolean) {
  const own = { oidc: fieldsOf(forms.oidc), saml: fieldsOf(forms.saml) };
  const onlyIn = (protocol: SsoProtocol, key: string) => own[protocol].includes(key) && !own[protocol === 'oidc' ? 'saml' : 'oidc'].includes(key);
  return (data: unknown) => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return { error: new BadRequestError('The request body must be a JSON object') };
    const { state, ...settings } = data as Record<string, unknown>;
    const keys = Object.keys(settings);
    const protocol: SsoProtocol = 'protocol' in settings ? (settings.protocol === 'saml' ? 'saml' : 'oidc') : keys.some((key) => onlyIn('saml', key)) ? 'saml' : 'oidc';
    const other = protocol === 'oidc' ? 'saml' : 'oidc';
    const stateSent = withState && state !== undefined;
    const errors: FieldError[] = [
      ...(stateSent && keys.length === 0 ? [] : (validateForm(forms[protocol], settings) ?? [])),
      ...keys.filter((key) => onlyIn(other, key)).map((key) => ({ field: wireField([key]), code: FIELD_ERROR.invalid, meta: {} })),
      ...(stateSent ? (validateForm(STATE_FORM, { state }) ?? []) : []),
    ];
    return errors.length > 0 ? { error: new FormValidationError(errors) } : { value: stateSent ? { ...settings, state } : settings };
  };
}

/** A route's validators: its connection body as above, the rest (params, headers) as everywhere. */
function connectionValidators(body: ReturnType<typeof connectionBody>): FastifySchemaCompiler<unknown> {
  const others = createValidatorCompiler();
  return (route) => (route.httpPart === 'body' ? body : others(route));
}

/** A domain's change: its connection (the page's 'Change'), or whether it requires single sign-on (the page's buttons). */
const domainChangeBody = formBody('sso-domain-connection', 'sso-domain-require-sso');

const ACCESS_ERRORS = { 403: [API_ERROR.forbidden] } as const;
const RECORD_ERRORS = { 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] } as const;
const LIMIT_ERRORS = { 403: [API_ERROR.forbidden], 409: [API_ERROR.limitReached] } as const;
const DOMAIN_CHANGE_ERRORS = { 403: [API_ERROR.forbidden, API_ERROR.federatedSessionRequired], 404: [API_ERROR.notFound] } as const;
const tags = [TAG.ssoConnections];
const deleted = { 204: { description: 'Deleted', type: 'null' } } as const;

/**
 * The connection the session signed in through, when it did so within the window (the access token's amr and
 * sso_connection, never the browser's word); the domain's change checks it is the domain's own connection.
 */
export function signedInThroughSso(admin: SignedInAdmin, nowMs = Date.now()): string | undefined {
  const recent = (admin.amr?.includes('fed') ?? false) && !isReauthenticationExpired(admin, FEDERATED_SIGN_IN_WINDOW_SECONDS, nowMs);
  return recent ? admin.ssoConnectionId : undefined;
}

/** What only the server can tell of the settings (the forms have the rest): the IdP URLs are https to a public address (demo mode: http and loopback too), the metadata XML is metadata. */
function settingsErrors(settings: ConnectionChange, demo: boolean): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, value] of [['issuer', settings.issuer], ['idp_metadata_url', settings.idpMetadataUrl]] as const) {
    const problem = value ? customerUrlProblem(value, { demo }) : undefined;
    if (problem) errors.push({ field, code: problem === 'invalid' ? FIELD_ERROR.invalid : FIELD_ERROR[problem], meta: {} });
  }
  if (settings.idpMetadataXml && !isMetadataXml(settings.idpMetadataXml)) errors.push({ field: 'idp_metadata_xml', code: FIELD_ERROR.invalid, meta: {} });
  return errors;
}

/** SAML metadata as far as it is read here: an EntityDescriptor, and no DOCTYPE (DESIGN §7: entities are a trap; the sign-in's parser refuses them too). */
const isMetadataXml = (xml: string) => /<(?:[\w-]+:)?EntityDescriptor[\s>]/.test(xml) && !/<!DOCTYPE|<!ENTITY/i.test(xml);

function refuseInvalid(errors: FieldError[]): void {
  if (errors.length > 0) throw new FormValidationError(errors);
}

export const ssoConnectionsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { db, config } = app;
  const collection = '/organizations/:orgId/sso_connections';
  const member = `${collection}/:connectionId`;
  const domains = '/organizations/:orgId/sso_domains';
  const domain = `${domains}/:domainId`;
  const secretKeys = { db, configuredKeys: config.secretKeys };
  const lookupTxt = txtResolver(config.sso.dnsServers);
  const shown = shownConnection.bind(null, config.publicUrl);

  /** A domain write's refusals as answers; its result otherwise. */
  async function outcomeOf<Result>(request: FastifyRequest, write: SsoWrite<Result> | { outcome: 'federation_required' }, target: { type: string; id: string }): Promise<Result> {
    switch (write.outcome) {
      case 'invalid':
        throw new FormValidationError(write.errors);
      case 'federation_required':
        throw new ApiError(403, API_ERROR.federatedSessionRequired, 'sign in through single sign-on (within the last 10 minutes) before requiring it');
      default:
        return writtenRecord(db, request, write, target);
    }
  }

  // ---- connections

  app.get<{ Params: OrganizationParams }>(
    collection,
    { schema: { tags, summary: `The organisation's single-sign-on connections, oldest first (a manager; at most ${MAX_CONNECTIONS})`, params: organizationParams, response: { 200: wire(ssoConnectionsAnswerSchema), ...errorAnswers(ACCESS_ERRORS) } } },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      return { ssoConnections: (await listConnections(db, request.params.orgId)).map(shown) };
    },
  );

  app.get<{ Params: ConnectionParams }>(
    member,
    { schema: { tags, summary: 'One single-sign-on connection (a manager), its version in ETag', params: connectionParams, response: { 200: { ...wire(ssoConnectionAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS) } } },
    async (request, reply) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const connection = await findConnection(db, request.params.orgId, request.params.connectionId);
      if (!connection) throw new ApiError(404, API_ERROR.notFound);
      sendEtag(reply, connection.etag);
      return { ssoConnection: shown(connection) };
    },
  );

  app.post<{ Params: OrganizationParams; Body: NewConnection }>(
    collection,
    {
      config: { audit: ['sso.connectionCreated'] satisfies AuditAction[] },
      validatorCompiler: connectionValidators(connectionBody(CREATE_FORMS, false)),
      schema: {
        tags,
        summary: `Add a single-sign-on connection, a draft (a manager; at most ${MAX_CONNECTIONS}): the answer has what to register at the IdP (OIDC redirect_uri; SAML sp_entity_id, acs_url, sp_metadata_url)`,
        params: organizationParams,
        body: formBody(CREATE_FORMS.oidc, CREATE_FORMS.saml),
        response: { 201: { ...wire(ssoConnectionAnswerSchema), headers: etagHeader }, ...errorAnswers(LIMIT_ERRORS) },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      refuseInvalid(settingsErrors(request.body, config.demo));
      const connection = await outcomeOf(request, await createConnection(secretKeys, orgId, request.body, auditOf(request, orgId)), { type: 'ssoConnection', id: '' });
      request.log.info({ organizationId: orgId, connectionId: connection.id, protocol: connection.protocol }, 'single-sign-on connection added');
      sendEtag(reply, connection.etag);
      return reply.code(201).send({ ssoConnection: shown(connection) });
    },
  );

  app.patch<{ Params: ConnectionParams; Body: ConnectionChange }>(
    member,
    {
      config: { audit: ['sso.connectionChanged'] satisfies AuditAction[] },
      validatorCompiler: connectionValidators(connectionBody(EDIT_FORMS, true)),
      schema: {
        tags,
        summary: 'Change a single-sign-on connection (a manager): the settings sent, or its state (on: its settings must be complete; paused); with If-Match, only the version named',
        params: connectionParams,
        headers: conditionalWrite.headers,
        body: formBody(EDIT_FORMS.oidc, EDIT_FORMS.saml, STATE_FORM),
        response: { 200: { ...wire(ssoConnectionAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, connectionId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const precondition = preconditionOf(request, config.ifMatchRequired);
      refuseInvalid(settingsErrors(request.body, config.demo));
      const write = await updateConnection(secretKeys, orgId, connectionId, { settings: request.body, precondition }, auditOf(request, orgId));
      const connection = await outcomeOf(request, write, { type: 'ssoConnection', id: connectionId });
      if (request.body.state) request.log.info({ organizationId: orgId, connectionId, state: request.body.state }, 'single-sign-on connection state');
      sendEtag(reply, connection.etag);
      return { ssoConnection: shown(connection) };
    },
  );

  app.delete<{ Params: ConnectionParams }>(
    member,
    {
      config: { audit: ['sso.connectionDeleted', 'sso.domainChanged'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: 'Delete a single-sign-on connection (a manager): the domains it signed in stop requiring single sign-on; with If-Match, only the version named',
        params: connectionParams,
        headers: conditionalWrite.headers,
        response: { ...deleted, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, connectionId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const write = await deleteConnection(db, orgId, connectionId, preconditionOf(request, config.ifMatchRequired), auditOf(request, orgId));
      await outcomeOf(request, write, { type: 'ssoConnection', id: connectionId });
      request.log.info({ organizationId: orgId, connectionId }, 'single-sign-on connection deleted');
      return reply.code(204).send();
    },
  );

  // 'Test connection': a ticket for one sign-in through the connection in a new window (idp/connectionTest.ts), in any
  // state once complete (a draft is tested before it is turned on); the test's outcome is what the trail records
  const Adapter = createAdapterClass(db);
  app.post<{ Params: ConnectionParams }>(
    `${member}/test`,
    {
      config: { audit: [] satisfies AuditAction[] },
      schema: {
        tags,
        summary: "Test a single-sign-on connection (a manager): a page to open in a new window (once, within 5 minutes) that signs in at the IdP and shows what it sent, signing nobody in; 422 while the connection's settings are incomplete",
        params: connectionParams,
        response: { 201: wire(ssoConnectionTestAnswerSchema), ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const { orgId, connectionId } = request.params;
      await requireManager(db, admin, orgId);
      const connection = await db
        .selectFrom('ssoConnections')
        .select(['protocol', 'issuer', 'clientId', 'clientSecretEncrypted', 'idpMetadataXml', 'idpMetadataUrl'])
        .where('organizationId', '=', orgId)
        .where('id', '=', connectionId)
        .executeTakeFirst();
      if (!connection) throw new ApiError(404, API_ERROR.notFound);
      refuseInvalid(missingForSignIn(connection));
      const test = await issueConnectionTest(Adapter, config.publicUrl, { organizationId: orgId, connectionId, adminId: admin.id });
      request.log.info({ organizationId: orgId, connectionId }, 'single-sign-on connection test started');
      return reply.code(201).send(test);
    },
  );

  // ---- domains

  app.get<{ Params: OrganizationParams }>(
    domains,
    { schema: { tags, summary: `The organisation's single-sign-on domains, oldest first (a manager; at most ${MAX_DOMAINS})`, params: organizationParams, response: { 200: wire(ssoDomainsAnswerSchema), ...errorAnswers(ACCESS_ERRORS) } } },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      return { ssoDomains: await listDomains(db, request.params.orgId) };
    },
  );

  app.post<{ Params: OrganizationParams; Body: { domain: string } }>(
    domains,
    {
      config: { audit: ['sso.domainAdded'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: `Claim an e-mail domain (a manager; at most ${MAX_DOMAINS}; no free-mail domain): the answer has the TXT record to publish, then verify`,
        params: organizationParams,
        body: formBody('sso-domain'),
        response: { 201: { ...wire(ssoDomainAnswerSchema), headers: etagHeader }, ...errorAnswers(LIMIT_ERRORS) },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const name = normalizeDomain(request.body.domain);
      if (!name) throw new FormValidationError([{ field: 'domain', code: FIELD_ERROR.invalid, meta: {} }]);
      const added = await outcomeOf(request, await addDomain(db, orgId, name, config.sso.freeMailDomains, auditOf(request, orgId)), { type: 'ssoDomain', id: '' });
      request.log.info({ organizationId: orgId, domainId: added.id }, 'single-sign-on domain added');
      sendEtag(reply, added.etag);
      return reply.code(201).send({ ssoDomain: added });
    },
  );

  app.post<{ Params: DomainParams }>(
    `${domain}/verify`,
    {
      config: { audit: ['sso.domainVerified'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: 'Verify a domain by its TXT record (a manager): 422 txtRecordMissing while it is not published, taken when another organisation verified it first',
        params: domainParams,
        response: { 200: { ...wire(ssoDomainAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request, reply) => {
      const { orgId, domainId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const verified = await outcomeOf(request, await verifyDomain(db, orgId, domainId, lookupTxt, auditOf(request, orgId)), { type: 'ssoDomain', id: domainId });
      request.log.info({ organizationId: orgId, domainId }, 'single-sign-on domain verified');
      sendEtag(reply, verified.etag);
      return { ssoDomain: verified };
    },
  );

  app.patch<{ Params: DomainParams; Body: DomainChange }>(
    domain,
    {
      config: { audit: ['sso.domainChanged'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: 'Route a domain to a connection, or require single sign-on for it (a manager; requiring it needs a session signed in through single sign-on within 10 minutes, the domain verified and its connection on); with If-Match, only the version named',
        params: domainParams,
        headers: conditionalWrite.headers,
        body: domainChangeBody,
        response: { 200: { ...wire(ssoDomainAnswerSchema), headers: etagHeader }, ...errorAnswers(DOMAIN_CHANGE_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const { orgId, domainId } = request.params;
      await requireManager(db, admin, orgId);
      const precondition = preconditionOf(request, config.ifMatchRequired);
      const write = await changeDomain(db, orgId, domainId, { settings: request.body, precondition, federatedThrough: signedInThroughSso(admin) }, auditOf(request, orgId));
      const changed = await outcomeOf(request, write, { type: 'ssoDomain', id: domainId });
      request.log.info({ organizationId: orgId, domainId, requireSso: changed.requireSso }, 'single-sign-on domain changed');
      sendEtag(reply, changed.etag);
      return { ssoDomain: changed };
    },
  );

  app.delete<{ Params: DomainParams }>(
    domain,
    {
      config: { audit: ['sso.domainDeleted'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: 'Delete a single-sign-on domain (a manager); with If-Match, only the version named',
        params: domainParams,
        headers: conditionalWrite.headers,
        response: { ...deleted, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, domainId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      await outcomeOf(request, await deleteDomain(db, orgId, domainId, preconditionOf(request, config.ifMatchRequired), auditOf(request, orgId)), { type: 'ssoDomain', id: domainId });
      request.log.info({ organizationId: orgId, domainId }, 'single-sign-on domain deleted');
      return reply.code(204).send();
    },
  );
};
