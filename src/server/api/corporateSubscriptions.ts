/**
 * Corporate subscriptions of the session's organisation (SPEC §7 'Corporate subscriptions', 2.9, 2.10, 2.11):
 *
 *   GET    organizations/{orgId}/corporate_subscriptions?service_group_id=&order_by=-starts_on|starts_on&per_page=&page=
 *                                                           → {corporateSubscriptions, nextPage}
 *   GET    organizations/{orgId}/corporate_subscriptions?updated_since=|cursor=&per_page=
 *                                                           → {corporateSubscriptions, deleted, nextCursor, hasMore}: what
 *                                                             changed and what was cancelled (api/sync.ts)
 *   GET    organizations/{orgId}/corporate_subscriptions/{requestCode}          → {corporateSubscription}
 *   POST   organizations/{orgId}/corporate_subscriptions?dryrun=               the form → 201 (dry run 200)
 *                                                           {corporateSubscription, warnings}
 *   PATCH  organizations/{orgId}/corporate_subscriptions/{requestCode}?dryrun= the form → 200 the same
 *   PATCH  organizations/{orgId}/confirmed_corporate_subscriptions/{requestCode}?dryrun= the form (its users) → 200
 *   DELETE organizations/{orgId}/corporate_subscriptions/{requestCode}          → 204
 *
 * Who: managers of the organisation only (SPEC §6: applying is a manager's; the pages are admin-only), else 403. An
 * unknown requestCode, another organisation's included, answers 404 not_found. The body is schemas/subscription.json;
 * before it is validated, learner rows with all five fields blank are dropped (SPEC §5), a contact id of 0 or null
 * means none, and a change that leaves out the billing contact or the contact keeps the stored one (SPEC §7 payload
 * rules). Rules that need data answer 422 field errors (domain/corporateSubscriptionChecks.ts). The writes take an
 * Idempotency-Key header (api/idempotency.ts): a repeat answers the first answer, without a second mail. The ids of
 * applications, learner rows and contacts travel as public ids (domain/publicIds.ts), in answers and bodies alike.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  subscriptionAnswerSchema,
  subscriptionsAnswerSchema,
  subscriptionWriteAnswerSchema,
  type Subscription,
  type SubscriptionWriteAnswer,
} from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import type { AuditAction } from '../../common/auditActions.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../common/languages.js';
import { addDays, startsOnAsSent, tokyoToday } from '../../common/subscriptionRules.js';
import {
  ApplicationRefused,
  applicationListVersion,
  createSubscription,
  deleteSubscription,
  findSubscription,
  listSubscriptions,
  storedContactIds,
  subscriptionChanges,
  updateConfirmedSubscription,
  updateSubscription,
  type SubscriptionForm,
  type SubscriptionOrder,
  type SubscriptionWriter,
} from '../domain/corporateSubscriptions.js';
import { publicSubscription, storedSubscriptionForm } from '../domain/publicIds.js';
import { mailSubscription, type SubscriptionMailKind } from '../domain/subscriptionMails.js';
import { auditOf } from './audit.js';
import { requireManager, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { idempotencyHeaders, idempotentRequest, keyReusedAsFieldError, rememberRequest } from './idempotency.js';
import { changedMeanwhileAs412, conditionalWrite, etagHeader, preconditionOf, sendEtag } from './preconditions.js';
import { applicationCalendar } from '../domain/calendarEntries.js';
import { TAG } from './openapi.js';
import { errorAnswers, isId, organizationParams, wire } from './schemas.js';
import { refuseInSync, syncAnswer, syncQueryProperties, syncRead, syncStartOf, type SyncQuery } from './sync.js';
import { subscriptionRemovalSchema, withSyncProperties } from '../../common/api/syncAnswers.js';
import { FormValidationError, formBody } from './validation.js';
import { keptAnswers, sendKept } from './keptAnswers.js';
import { jsonListAnswer } from './wire.js';

const orgId = organizationParams.properties.orgId;
const requestCodeParams = {
  type: 'object',
  additionalProperties: false,
  properties: { orgId, requestCode: { type: 'string', minLength: 1, maxLength: 20, description: "the application's number ('A' + 9 digits)" } },
  required: ['orgId', 'requestCode'],
} as const;

const lang = { type: 'string', enum: [...LANGUAGES], description: 'the language of service and group names (default ja)' } as const;
const dryrun = { type: 'boolean', default: false, description: 'true: check and answer what would be stored, store nothing' } as const;

/** SPEC §7's browser asks for 999 a page: the most one answer holds. */
const MAX_PER_PAGE = 999;

const listQuery = {
  type: 'object',
  properties: {
    service_group_id: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'only the applications of this service group' },
    order_by: { type: 'string', enum: ['-starts_on', 'starts_on'], default: '-starts_on' },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: MAX_PER_PAGE, description: 'applications a page (the browser sends 999)' },
    page: { type: 'integer', minimum: 1, maximum: 100000, default: 1, description: 'the page, from 1; the answer names the next one (next_page)' },
    lang,
    ...syncQueryProperties,
  },
} as const;
const writeQuery = { type: 'object', properties: { dryrun, lang } } as const;
const langQuery = { type: 'object', properties: { lang } } as const;

type OrgParams = { orgId: number };
type CodeParams = OrgParams & { requestCode: string };
type ListQuery = SyncQuery & { service_group_id?: number; order_by?: SubscriptionOrder; per_page: number; page: number; lang?: Language };
type WriteQuery = { dryrun?: boolean; lang?: Language };

const ACCESS_ERRORS = { 403: [API_ERROR.forbidden] } as const;
const RECORD_ERRORS = { 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] } as const;
const notFound = () => new ApiError(404, API_ERROR.notFound);

/** The session's admin as a manager of the organisation, reading in the query's language, today in Tokyo. */
async function subscriptionReader(app: FastifyInstance, request: FastifyRequest<{ Params: OrgParams; Querystring: { lang?: Language } }>): Promise<SubscriptionWriter> {
  const admin = signedIn(request);
  // Number(): the PATCH's preValidation reads the params before they are validated (still text)
  const organizationId = Number(request.params.orgId);
  const role = await requireManager(app.db, admin, organizationId);
  return {
    organizationId,
    gloplaId: admin.gloplaId ?? '',
    role,
    token: admin.accessToken ?? '',
    language: request.query.lang ?? DEFAULT_LANGUAGE,
    exceptions: app.config.serviceLinks,
    today: tokyoToday(),
    settings: app.config.subscriptions,
    trail: auditOf(request, organizationId),
  };
}

const LEARNER_FIELDS = ['firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'] as const;

function isBlankRow(row: unknown): boolean {
  if (typeof row !== 'object' || row === null) return false;
  return LEARNER_FIELDS.every((field) => {
    const value = (row as Record<string, unknown>)[field];
    return value === undefined || value === null || value === '';
  });
}

/** SPEC §5, §7: blank learner rows dropped; contact ids of 0 or null and a null class mean none; MM-dd-yyyy start dates as yyyy-MM-dd. */
function normalizeBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const form = body as Record<string, unknown>;
  if (typeof form.startsOn === 'string') form.startsOn = startsOnAsSent(form.startsOn);
  if (Array.isArray(form.users)) form.users = form.users.filter((row) => !isBlankRow(row));
  for (const key of ['billingContactId', 'contactId']) if (form[key] === 0 || form[key] === null) delete form[key];
  if (form.projectClassId === null) form.projectClassId = 0;
}

/** A change that leaves out the billing contact or the contact keeps the stored one (only without a class). */
async function keepStoredContacts(app: FastifyInstance, request: FastifyRequest<{ Params: CodeParams; Querystring: WriteQuery }>): Promise<void> {
  const form = request.body as Record<string, unknown> | undefined;
  if (typeof form !== 'object' || form === null || Array.isArray(form) || (typeof form.projectClassId === 'number' && form.projectClassId > 0)) return;
  // before validation: an orgId past the integer column is left to the params schema (422), not sent to the database
  if (!isId(request.params.orgId)) return;
  const reader = await subscriptionReader(app, request);
  const stored = await storedContactIds(app.db, reader.organizationId, request.params.requestCode);
  if (!stored) throw notFound();
  // the body holds public ids until the handler takes the stored ones
  if (!('billingContactId' in form) && stored.billingContactId !== null) form.billingContactId = app.publicIds.billingContact.toPublic(stored.billingContactId);
  if (!('contactId' in form) && stored.contactId !== null) form.contactId = app.publicIds.contact.toPublic(stored.contactId);
}

/** The manager's confirmation mail of a real write (domain/subscriptionMails.ts); queued, never fails the answer. */
async function mailConfirmation(app: FastifyInstance, request: FastifyRequest<{ Querystring: { lang?: Language } }>, kind: SubscriptionMailKind, subscription: Subscription): Promise<void> {
  const deps = { db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl };
  await mailSubscription(deps, { kind, adminId: signedIn(request).id, requestedLanguage: request.query.lang, subscription }).catch((error: unknown) =>
    request.log.error({ err: error }, 'the confirmation mail of an application could not be queued'),
  );
}

/** The domain's refusal as the 422 field errors every form answers; a change on an old version as 412 (issue 28). */
async function refusedAsFieldErrors<T>(app: FastifyInstance, request: FastifyRequest<{ Params: OrgParams }>, work: Promise<T>): Promise<T> {
  try {
    return await changedMeanwhileAs412(app.db, request, Number(request.params.orgId), work);
  } catch (error) {
    if (error instanceof ApplicationRefused) throw new FormValidationError(error.fieldErrors);
    throw keyReusedAsFieldError(error);
  }
}

/** A write's answer with public ids (the domain's, and an idempotent replay's, hold the stored ones). */
function publicWriteAnswer(app: FastifyInstance, answer: SubscriptionWriteAnswer): SubscriptionWriteAnswer {
  return { ...answer, corporateSubscription: publicSubscription(app.publicIds, answer.corporateSubscription) };
}

/** When the day after `today` starts in Tokyo, ms since the epoch (Japan keeps no daylight saving time). */
const nextTokyoDay = (today: string) => Date.parse(`${addDays(today, 1)}T00:00:00+09:00`);

function registerReads(app: FastifyInstance, tags: string[]): void {
  // the organisations' pages of applications as last answered, each under its list's version (migration 0113)
  const keptPages = keptAnswers<string>(app.config.listCacheMb * 1024 * 1024);
  app.get<{ Params: OrgParams; Querystring: ListQuery }>(
    '/organizations/:orgId/corporate_subscriptions',
    {
      schema: {
        tags,
        summary:
          "The organisation's applications, newest start first by default (a manager); with updated_since or cursor, what changed and what was cancelled since, oldest change first, per_page at a time (order_by is then not used)",
        params: organizationParams,
        querystring: listQuery,
        response: { 200: wire(withSyncProperties(subscriptionsAnswerSchema, 'corporateSubscriptions', subscriptionRemovalSchema)), ...errorAnswers(ACCESS_ERRORS) },
      },
    },
    async (request, reply) => {
      const reader = await subscriptionReader(app, request);
      const { service_group_id: serviceGroupId, order_by: order, per_page: perPage, page } = request.query;
      const start = syncStartOf(request.query, 'corporateSubscriptions', app.publicIds.subscription);
      if (start) {
        refuseInSync({ service_group_id: serviceGroupId, page: page === 1 ? undefined : page });
        const changes = await syncRead(subscriptionChanges(app.db, reader, { ...start, limit: perPage }));
        return syncAnswer('corporateSubscriptions', 'corporateSubscriptions', changes, {
          ids: app.publicIds.subscription,
          show: (subscription) => publicSubscription(app.publicIds, subscription),
          removal: ({ id, key, deletedAt }) => ({ id: app.publicIds.subscription.toPublic(id), requestCode: key, deletedAt }),
        });
      }
      // a page kept since the list's last change costs one small query of its version
      const pageKey = [reader.organizationId, serviceGroupId ?? '', order ?? '', perPage, page, reader.language].join(' ');
      if (keptPages.has(pageKey)) {
        const kept = keptPages.current(pageKey, await applicationListVersion(app.db, reader.organizationId), Date.now());
        if (kept) return sendKept(request, reply, kept);
      }
      const { subscriptionsJson, nextPage, version } = await listSubscriptions(app.db, reader, { serviceGroupId, order, perPage, page }, (id) => app.publicIds.subscription.toPublic(id));
      // each application comes written in wire form (the response schema documents it; Fastify serialises no string)
      const body = jsonListAnswer('corporateSubscriptions', subscriptionsJson, `,"next_page":${nextPage}`);
      // a page holds until the list changes or the day does (whether each application may still be changed); an
      // empty page has no version to keep it under
      const validUntil = version === undefined ? 0 : nextTokyoDay(reader.today);
      return sendKept(request, reply, keptPages.keep(pageKey, { version: version ?? '', validUntil, body }));
    },
  );

  app.get<{ Params: CodeParams; Querystring: { lang?: Language } }>(
    '/organizations/:orgId/corporate_subscriptions/:requestCode',
    {
      schema: {
        tags,
        summary: 'One application by its requestCode (a manager), its version in ETag',
        params: requestCodeParams,
        querystring: langQuery,
        response: { 200: { ...wire(subscriptionAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request, reply) => {
      const corporateSubscription = await findSubscription(app.db, await subscriptionReader(app, request), request.params.requestCode);
      if (!corporateSubscription) throw notFound();
      sendEtag(reply, corporateSubscription.etag);
      return { corporateSubscription: publicSubscription(app.publicIds, corporateSubscription) };
    },
  );

  app.get<{ Params: CodeParams; Querystring: { lang?: Language } }>(
    '/organizations/:orgId/corporate_subscriptions/:requestCode/calendar',
    {
      schema: {
        tags,
        summary: "The application's start date and change deadline as all-day calendar entries (a manager; issue 30)",
        description: 'An iCalendar file (RFC 5545) in the language asked for; importing it again updates the same entries.',
        params: requestCodeParams,
        querystring: langQuery,
        response: { 200: { type: 'string', description: 'text/calendar; charset=utf-8' }, ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request, reply) => {
      const reader = await subscriptionReader(app, request);
      const corporateSubscription = await findSubscription(app.db, reader, request.params.requestCode);
      if (!corporateSubscription) throw notFound();
      reply.type('text/calendar; charset=utf-8').header('content-disposition', `attachment; filename="${corporateSubscription.requestCode}.ics"`);
      return applicationCalendar(corporateSubscription, reader.language, app.config.publicUrl);
    },
  );
}

function registerCreate(app: FastifyInstance, tags: string[]): void {
  app.post<{ Params: OrgParams; Querystring: WriteQuery; Body: SubscriptionForm }>(
    '/organizations/:orgId/corporate_subscriptions',
    {
      preValidation: async (request) => {
        rememberRequest(request);
        normalizeBody(request.body);
      },
      config: { audit: ['subscription.created'] },
      schema: {
        tags,
        summary: 'Apply (a manager): dry run 200, nothing stored; real run 201 with a new requestCode; with warnings; once per Idempotency-Key',
        params: organizationParams,
        querystring: writeQuery,
        headers: idempotencyHeaders,
        body: formBody('subscription'),
        response: { 200: wire(subscriptionWriteAnswerSchema), 201: { ...wire(subscriptionWriteAnswerSchema), headers: etagHeader }, ...errorAnswers(ACCESS_ERRORS) },
      },
    },
    async (request, reply) => {
      const reader = await subscriptionReader(app, request);
      const dryRun = request.query.dryrun === true;
      const idempotency = idempotentRequest(request, reader.organizationId, signedIn(request).id);
      const form = storedSubscriptionForm(app.publicIds, request.body);
      const { replayed, ...answer } = await refusedAsFieldErrors(app, request, createSubscription(app.db, reader, form, dryRun, idempotency));
      if (!dryRun && !replayed) {
        request.log.info({ organizationId: reader.organizationId, requestCode: answer.corporateSubscription.requestCode }, 'corporate subscription applied');
        await mailConfirmation(app, request, 'subscriptionApplied', answer.corporateSubscription);
      }
      sendEtag(reply, answer.corporateSubscription.etag);
      return reply.code(dryRun ? 200 : 201).send(publicWriteAnswer(app, answer));
    },
  );
}

function registerUpdates(app: FastifyInstance, tags: string[]): void {
  const update = (path: string, summary: string, action: AuditAction, write: typeof updateSubscription) =>
    app.patch<{ Params: CodeParams; Querystring: WriteQuery; Body: SubscriptionForm }>(
      path,
      {
        preValidation: async (request) => {
          rememberRequest(request);
          normalizeBody(request.body);
          await keepStoredContacts(app, request);
        },
        config: { audit: [action] },
        schema: {
          tags,
          summary: `${summary}; once per Idempotency-Key; with If-Match, only on the version named (a dry run too: it answers the version it checked)`,
          params: requestCodeParams,
          querystring: writeQuery,
          headers: { ...idempotencyHeaders, properties: { ...idempotencyHeaders.properties, ...conditionalWrite.headers.properties } },
          body: formBody('subscription'),
          response: { 200: { ...wire(subscriptionWriteAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
        },
      },
      async (request, reply) => {
        const reader = await subscriptionReader(app, request);
        const dryRun = request.query.dryrun === true;
        const idempotency = idempotentRequest(request, reader.organizationId, signedIn(request).id);
        const precondition = preconditionOf(request, app.config.ifMatchRequired);
        const form = storedSubscriptionForm(app.publicIds, request.body);
        const result = await refusedAsFieldErrors(app, request, write(app.db, reader, request.params.requestCode, form, { dryRun, idempotency, precondition }));
        if (!result) throw notFound();
        const { replayed, ...answer } = result;
        if (!dryRun && !replayed) {
          request.log.info({ organizationId: reader.organizationId, requestCode: request.params.requestCode, path }, 'corporate subscription changed');
          await mailConfirmation(app, request, 'subscriptionChanged', answer.corporateSubscription);
        }
        sendEtag(reply, answer.corporateSubscription.etag);
        return publicWriteAnswer(app, answer);
      },
    );
  update('/organizations/:orgId/corporate_subscriptions/:requestCode', 'Change an application while it is updatable (a manager); 422 requestCode notUpdatable after its deadline', 'subscription.updated', updateSubscription);
  update(
    '/organizations/:orgId/confirmed_corporate_subscriptions/:requestCode',
    "Change the learners of a class application (a manager): added until the enlargement deadline, none removed; other admins than the stored ones are refused (admin_ids notUpdatable); the body's other fields are not used",
    'subscription.confirmedUpdated',
    updateConfirmedSubscription,
  );
}

function registerDelete(app: FastifyInstance, tags: string[]): void {
  app.delete<{ Params: CodeParams; Querystring: { lang?: Language } }>(
    '/organizations/:orgId/corporate_subscriptions/:requestCode',
    {
      config: { audit: ['subscription.cancelled'] },
      schema: {
        tags,
        summary: 'Cancel (delete) an application while it is updatable (a manager); 422 requestCode notUpdatable after its deadline; with If-Match, only the version named',
        params: requestCodeParams,
        headers: conditionalWrite.headers,
        response: { 204: { description: 'Cancelled', type: 'null' }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const reader = await subscriptionReader(app, request);
      const precondition = preconditionOf(request, app.config.ifMatchRequired);
      const cancelled = await findSubscription(app.db, reader, request.params.requestCode);
      const outcome = await refusedAsFieldErrors(app, request, deleteSubscription(app.db, reader, request.params.requestCode, precondition));
      if (outcome === 'notFound' || !cancelled) throw notFound();
      request.log.info({ organizationId: reader.organizationId, requestCode: request.params.requestCode }, 'corporate subscription cancelled');
      await mailConfirmation(app, request, 'subscriptionCancelled', cancelled);
      return reply.code(204).send();
    },
  );
}

export const corporateSubscriptionsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const tags = [TAG.corporateSubscriptions];
  registerReads(app, tags);
  registerCreate(app, tags);
  registerUpdates(app, tags);
  registerDelete(app, tags);
};
