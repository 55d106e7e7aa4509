/**
 * The API: /api/v2 (SPEC §7) and /api/v1/notices. Both share the wire conventions, installed here for
 * the API routes only (the OpenAPI document and the static files are left alone), and document the errors
 * every route may answer (api/openapi.ts):
 * - preValidation: a JSON body's keys become camelCase and its strings are trimmed (deep, arrays of
 *   objects too; only the keys the route's schema names are remembered, api/jsonBody.ts); multipart and other bodies
 *   are not touched;
 * - preSerialization: response keys become snake_case (deep).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { adminAccountsRoutes } from './adminAccounts.js';
import { adminsRoutes } from './admins.js';
import { twoStepRoutes } from './twoStep.js';
import { signInRuleRoutes } from './signInRule.js';
import { overviewRoutes } from './overview.js';
import { auditEventsRoutes } from './auditEvents.js';
import { affiliationsRoutes } from './affiliations.js';
import { contactsRoutes } from './contacts.js';
import { corporateSubscriptionsRoutes } from './corporateSubscriptions.js';
import { captchaRoutes } from './captcha.js';
import { clientErrorsRoutes } from './clientErrors.js';
import { contentRoutes } from './content.js';
import { featureFlagsRoutes } from './featureFlags.js';
import { noticesRoutes } from './notices.js';
import { organizationUsersRoutes } from './organizationUsers.js';
import { productAdminRolesRoutes } from './productAdminRoles.js';
import { projectsRoutes } from './projects.js';
import { registrationRequestsRoutes } from './registrationRequests.js';
import { servicesRoutes } from './services.js';
import { singleSignOnRoutes, singleSignOnVerifyRoutes } from './singleSignOn.js';
import { ssoConnectionsRoutes } from './ssoConnections.js';
import { apiClientsRoutes } from './apiClients.js';
import { webhookEndpointsRoutes } from './webhookEndpoints.js';
import { bodyBounds } from './jsonBody.js';
import { documentAnswers } from './openapi.js';
import { COMMON_ERRORS } from './schemas.js';
import { convertedBodies } from './streamedJsonBody.js';
import { fromWire, toWire } from './wire.js';

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function isJsonBody(request: FastifyRequest): boolean {
  return JSON_CONTENT_TYPE.test(request.headers['content-type'] ?? '');
}

function installWireConventions(app: FastifyInstance): void {
  app.addHook('onRoute', documentAnswers(COMMON_ERRORS));
  // synchronous hooks (done callback): they run on every API call, most of which are reads without a body
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body !== undefined && request.body !== null && isJsonBody(request) && !convertedBodies.has(request.body as object)) {
      request.body = fromWire(request.body, bodyBounds(request).keys);
    }
    done();
  });
  app.addHook('preSerialization', (_request, _reply, payload, done) => done(null, toWire(payload)));
}

const apiV2: FastifyPluginAsync = async (app) => {
  installWireConventions(app);
  await app.register(registrationRequestsRoutes);
  await app.register(clientErrorsRoutes);
  await app.register(adminAccountsRoutes);
  await app.register(servicesRoutes);
  await app.register(adminsRoutes);
  await app.register(twoStepRoutes);
  await app.register(affiliationsRoutes);
  await app.register(signInRuleRoutes);
  await app.register(overviewRoutes);
  await app.register(contactsRoutes);
  await app.register(ssoConnectionsRoutes);
  await app.register(apiClientsRoutes);
  await app.register(webhookEndpointsRoutes);
  await app.register(corporateSubscriptionsRoutes);
  await app.register(projectsRoutes);
  await app.register(productAdminRolesRoutes);
  await app.register(organizationUsersRoutes);
  await app.register(featureFlagsRoutes);
  await app.register(contentRoutes);
  await app.register(singleSignOnRoutes);
  await app.register(singleSignOnVerifyRoutes);
  await app.register(auditEventsRoutes);
};

const apiV1: FastifyPluginAsync = async (app) => {
  installWireConventions(app);
  await app.register(noticesRoutes);
};

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(apiV2, { prefix: '/api/v2' });
  // the captcha challenge is ALTCHA's own JSON (camelCase keys): served beside the wire conventions, not inside them
  await app.register(captchaRoutes, { prefix: '/api/v2' });
  await app.register(apiV1, { prefix: '/api/v1' });
};
