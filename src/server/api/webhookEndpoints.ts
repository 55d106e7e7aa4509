/**
 * The organisation's webhook endpoints (issue 46 item 5), set up by its managers:
 *
 *   GET    organizations/{orgId}/webhook_endpoints                                        → {webhookEndpoints, eventTypes} (at most 10, oldest first)
 *   POST   organizations/{orgId}/webhook_endpoints                {url, events}           → 201 {webhookEndpoint, secret} (the secret this once)
 *   PATCH  organizations/{orgId}/webhook_endpoints/{endpointId}   {url, events, enabled}  → {webhookEndpoint}
 *   DELETE organizations/{orgId}/webhook_endpoints/{endpointId}                           → 204
 *   GET    …/webhook_endpoints/{endpointId}/deliveries            ?cursor                 → {deliveries, nextCursor} (50 a page, newest first)
 *   POST   …/webhook_endpoints/{endpointId}/deliveries/{deliveryId}/resend                → 202 (the event again, same webhook-id)
 *   POST   …/webhook_endpoints/{endpointId}/test_events                                   → 202 (a webhook_endpoint.test event)
 *
 * Who: the organisation's managers (the session's organisation; members and others 403); an id the organisation does
 * not have answers 404. Every write is in the trail (webhook.*); an endpoint answers its ETag, which a PATCH or DELETE
 * with If-Match must still match (412; 428 under IF_MATCH_REQUIRED), as contacts do.
 *
 * A URL is https to a public address (domain/publicAddresses.ts); in demo mode http to loopback too, where the tests'
 * receivers listen. The sender checks the address again after DNS resolution, when it connects (webhookSender.ts).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import {
  webhookDeliveriesAnswerSchema,
  webhookEndpointAnswerSchema,
  webhookEndpointsAnswerSchema,
  webhookEndpointWithSecretAnswerSchema,
} from '../../common/api/webhookAnswers.js';
import type { AuditAction } from '../../common/auditActions.js';
import { API_ERROR, FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../common/webhookEvents.js';
import { customerUrlProblem } from '../domain/publicAddresses.js';
import {
  createEndpoint,
  decodeDeliveryCursor,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  MAX_ENDPOINTS,
  updateEndpoint,
  type EndpointSettings,
  type WebhookWrite,
} from '../domain/webhookEndpoints.js';
import { resendDelivery, sendTestEvent, WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from '../domain/webhookOutbox.js';
import { sendDelivery, webhookRetrySchedule, type WebhookSenderDeps } from '../domain/webhookSender.js';
import { auditOf } from './audit.js';
import { requireManager, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { conditionalWrite, etagHeader, preconditionOf, sendEtag, writtenRecord } from './preconditions.js';
import { errorAnswers, organizationParams, wire, type OrganizationParams } from './schemas.js';
import { formBody, FormValidationError } from './validation.js';

const orgId = organizationParams.properties.orgId;
const uuid = { type: 'string', format: 'uuid' } as const;
const endpointParams = { type: 'object', additionalProperties: false, properties: { orgId, endpointId: uuid }, required: ['orgId', 'endpointId'] } as const;
const deliveryParams = { type: 'object', additionalProperties: false, properties: { orgId, endpointId: uuid, deliveryId: uuid }, required: ['orgId', 'endpointId', 'deliveryId'] } as const;
const deliveriesQuery = { type: 'object', additionalProperties: false, properties: { cursor: { type: 'string', maxLength: 200, description: "the previous page's next_cursor" } } } as const;
type EndpointParams = FromSchema<typeof endpointParams>;
type DeliveryParams = FromSchema<typeof deliveryParams>;

const ACCESS_ERRORS = { 403: [API_ERROR.forbidden] } as const;
const RECORD_ERRORS = { 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] } as const;
const LIST_ERRORS = { 400: [API_ERROR.badRequest], 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] } as const;
const LIMIT_ERRORS = { 403: [API_ERROR.forbidden], 409: [API_ERROR.limitReached] } as const;
const tags = [TAG.webhooks];
const deleted = { 204: { description: 'Deleted', type: 'null' } } as const;
const accepted = { 202: { description: 'Queued: see the endpoint’s deliveries', type: 'null' } } as const;

/** What the form schemas cannot say: the URL's address (https, public; demo mode: loopback too) and the events (the one list). */
function settingsErrors(settings: EndpointSettings, demo: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const problem = settings.url === undefined ? undefined : customerUrlProblem(settings.url, { demo });
  if (problem) errors.push({ field: 'url', code: problem === 'invalid' ? FIELD_ERROR.invalid : FIELD_ERROR[problem], meta: {} });
  (settings.events ?? []).forEach((event, index) => {
    if (!isWebhookEventType(event)) errors.push({ field: `events.${index}`, code: FIELD_ERROR.invalid, meta: {} });
  });
  return errors;
}

function refuseInvalid(errors: FieldError[]): void {
  if (errors.length > 0) throw new FormValidationError(errors);
}

export const webhookEndpointsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { db, config } = app;
  const keys = { db, configuredKeys: config.secretKeys };
  const sender: WebhookSenderDeps = { keys, publicUrl: config.publicUrl, allowLoopback: config.demo };
  app.mailQueue.handle(WEBHOOK_DELIVERY_JOB, (job: WebhookDeliveryJob) => sendDelivery(sender, job), webhookRetrySchedule(sender));
  const collection = '/organizations/:orgId/webhook_endpoints';
  const member = `${collection}/:endpointId`;

  /** A write's refusals as answers; its result otherwise. */
  const outcomeOf = <Result>(request: FastifyRequest, write: WebhookWrite<Result>, id: string) => writtenRecord(db, request, write, { type: 'webhookEndpoint', id });

  app.get<{ Params: OrganizationParams }>(
    collection,
    { schema: { tags, summary: `The organisation's webhook endpoints, oldest first (a manager; at most ${MAX_ENDPOINTS})`, params: organizationParams, response: { 200: wire(webhookEndpointsAnswerSchema), ...errorAnswers(ACCESS_ERRORS) } } },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      return { webhookEndpoints: await listEndpoints(db, request.params.orgId), eventTypes: WEBHOOK_EVENT_TYPES };
    },
  );

  app.post<{ Params: OrganizationParams; Body: { url: string; events: WebhookEventType[] } }>(
    collection,
    {
      config: { audit: ['webhook.endpointCreated'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: `Add a webhook endpoint (a manager; at most ${MAX_ENDPOINTS}): the answer has its signing secret (whsec_…), this once`,
        params: organizationParams,
        body: formBody('webhook-endpoint'),
        response: { 201: { ...wire(webhookEndpointWithSecretAnswerSchema), headers: etagHeader }, ...errorAnswers(LIMIT_ERRORS) },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      refuseInvalid(settingsErrors(request.body, config.demo));
      const { endpoint, secret } = await outcomeOf(request, await createEndpoint(keys, orgId, request.body, auditOf(request, orgId)), '');
      request.log.info({ organizationId: orgId, endpointId: endpoint.id }, 'webhook endpoint added');
      sendEtag(reply, endpoint.etag);
      return reply.code(201).send({ webhookEndpoint: endpoint, secret });
    },
  );

  app.patch<{ Params: EndpointParams; Body: EndpointSettings }>(
    member,
    {
      config: { audit: ['webhook.endpointChanged'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: 'Change a webhook endpoint (a manager): its URL, its events, or enabled (false: stop sending; true: send again); with If-Match, only the version named',
        params: endpointParams,
        headers: conditionalWrite.headers,
        body: formBody('webhook-endpoint-edit'),
        response: { 200: { ...wire(webhookEndpointAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, endpointId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const precondition = preconditionOf(request, config.ifMatchRequired);
      refuseInvalid(settingsErrors(request.body, config.demo));
      const endpoint = await outcomeOf(request, await updateEndpoint(db, orgId, endpointId, { settings: request.body, precondition }, auditOf(request, orgId)), endpointId);
      sendEtag(reply, endpoint.etag);
      return { webhookEndpoint: endpoint };
    },
  );

  app.delete<{ Params: EndpointParams }>(
    member,
    {
      config: { audit: ['webhook.endpointDeleted'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint and its deliveries (a manager); with If-Match, only the version named',
        params: endpointParams,
        headers: conditionalWrite.headers,
        response: { ...deleted, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, endpointId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      await outcomeOf(request, await deleteEndpoint(db, orgId, endpointId, preconditionOf(request, config.ifMatchRequired), auditOf(request, orgId)), endpointId);
      request.log.info({ organizationId: orgId, endpointId }, 'webhook endpoint deleted');
      return reply.code(204).send();
    },
  );

  app.get<{ Params: EndpointParams; Querystring: FromSchema<typeof deliveriesQuery> }>(
    `${member}/deliveries`,
    {
      schema: {
        tags,
        summary: "The endpoint's deliveries, newest first, 50 a page (a manager): event, status, attempts, the last answer's status and time",
        params: endpointParams,
        querystring: deliveriesQuery,
        response: { 200: wire(webhookDeliveriesAnswerSchema), ...errorAnswers(LIST_ERRORS) },
      },
    },
    async (request) => {
      const { orgId, endpointId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const cursor = request.query.cursor ? decodeDeliveryCursor(request.query.cursor) : undefined;
      if (request.query.cursor && !cursor) throw new ApiError(400, API_ERROR.badRequest);
      const page = await listDeliveries(db, orgId, endpointId, cursor);
      if (!page) throw new ApiError(404, API_ERROR.notFound);
      return page;
    },
  );

  app.post<{ Params: DeliveryParams }>(
    `${member}/deliveries/:deliveryId/resend`,
    {
      config: { audit: ['webhook.deliveryResent'] satisfies AuditAction[] },
      schema: { tags, summary: "Send a delivery's event again (a manager): a new delivery with the same webhook-id, on a new retry schedule", params: deliveryParams, response: { ...accepted, ...errorAnswers(RECORD_ERRORS) } },
    },
    async (request, reply) => {
      const { orgId, endpointId, deliveryId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      if (!(await resendDelivery(db, orgId, endpointId, deliveryId, auditOf(request, orgId)))) throw new ApiError(404, API_ERROR.notFound);
      return reply.code(202).send();
    },
  );

  app.post<{ Params: EndpointParams }>(
    `${member}/test_events`,
    {
      config: { audit: ['webhook.testEventSent'] satisfies AuditAction[] },
      schema: { tags, summary: 'Send a test event (webhook_endpoint.test) to the endpoint (a manager), whatever events it subscribes to', params: endpointParams, response: { ...accepted, ...errorAnswers(RECORD_ERRORS) } },
    },
    async (request, reply) => {
      const { orgId, endpointId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      if (!(await sendTestEvent(db, orgId, endpointId, auditOf(request, orgId)))) throw new ApiError(404, API_ERROR.notFound);
      return reply.code(202).send();
    },
  );
};
