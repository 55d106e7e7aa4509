/**
 * Contacts (delivery addresses) and billing contacts of the session's organisation (SPEC §7 'Contacts', §3 Contact
 * and Billing contact, 2.12): five calls each, the billing ones reading billingContacts / billingContact.
 *
 *   GET    organizations/{orgId}/contacts          → {contacts}
 *   GET    organizations/{orgId}/contacts?updated_since=|cursor=&per_page=
 *                                                  → {contacts, deleted, nextCursor, hasMore}: what changed (api/sync.ts)
 *   GET    organizations/{orgId}/contacts/{id}     → {contact}
 *   POST   organizations/{orgId}/contacts          the contact's fields → 201 {contact} (its id is used)
 *   PATCH  organizations/{orgId}/contacts/{id}     the contact's fields → {contact}
 *   DELETE organizations/{orgId}/contacts/{id}     → 204
 *   (the same on organizations/{orgId}/billing_contacts)
 *
 * Who: managers only, reading too. Contacts exist for applications, and applying for services is a manager's call
 * (SPEC §6); the addresses, names, phone numbers and e-mail addresses in them are nothing a member needs. The
 * organisation must be the session's (token glopla_id) and the caller its manager, else 403. An id the organisation
 * does not have — another organisation's included — answers 404 not_found. Ids travel as public ids
 * (domain/publicIds.ts): the stored sequence is shared by every organisation.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  billingContactAnswerSchema,
  billingContactsAnswerSchema,
  contactAnswerSchema,
  contactsAnswerSchema,
  type BillingContact,
  type Contact,
} from '../../common/api/answers.js';
import type { FormName } from '../../common/api/forms.js';
import { API_ERROR } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';
import {
  BILLING_CONTACTS,
  CONTACTS,
  contactChanges,
  createContact,
  deleteContact,
  findContact,
  listContacts,
  updateContact,
  type BillingContactFields,
  type ContactFields,
  type ContactTable,
  type Versioned,
} from '../domain/contacts.js';
import { publicContact, type IdKind } from '../domain/publicIds.js';
import { auditOf } from './audit.js';
import { requireManager, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { conditionalWrite, etagHeader, preconditionFailed, preconditionOf, sendEtag } from './preconditions.js';
import { TAG } from './openapi.js';
import { errorAnswers, organizationParams, organizationRecordParams, wire, type OrganizationParams, type OrganizationRecordParams } from './schemas.js';
import { refuseInSync, SYNC_PAGE_DEFAULT, syncAnswer, syncQueryProperties, syncRead, syncStartOf, type SyncQuery } from './sync.js';
import { publicRemovalSchema, withSyncProperties } from '../../common/api/syncAnswers.js';
import { formBody } from './validation.js';

/** One kind of contact: its path, form, answer keys and table. */
interface ContactKind<Fields, Record> {
  path: string;
  form: FormName;
  /** What the OpenAPI summaries call it. */
  noun: string;
  listKey: string;
  oneKey: string;
  listAnswer: object;
  oneAnswer: object;
  table: ContactTable<Fields, Record>;
  /** Which public ids its records show. */
  idKind: IdKind;
}

const CONTACT_KIND: ContactKind<ContactFields, Contact> = {
  path: 'contacts',
  form: 'contact',
  noun: 'contact (delivery address)',
  listKey: 'contacts',
  oneKey: 'contact',
  listAnswer: contactsAnswerSchema,
  oneAnswer: contactAnswerSchema,
  table: CONTACTS,
  idKind: 'contact',
};

const BILLING_CONTACT_KIND: ContactKind<BillingContactFields, BillingContact> = {
  path: 'billing_contacts',
  form: 'billing-contact',
  noun: 'billing contact',
  listKey: 'billingContacts',
  oneKey: 'billingContact',
  listAnswer: billingContactsAnswerSchema,
  oneAnswer: billingContactAnswerSchema,
  table: BILLING_CONTACTS,
  idKind: 'billingContact',
};

const ACCESS_ERRORS = { 403: [API_ERROR.forbidden] } as const;

/** The most records a sync page of contacts holds. */
const SYNC_PAGE_MAX = 1000;

/** The list's query: nothing but the sync mode's (the list itself is every record, oldest first). */
const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...syncQueryProperties,
    per_page: { type: 'integer', minimum: 1, maximum: SYNC_PAGE_MAX, description: `with updated_since or cursor: changes a page (default ${SYNC_PAGE_DEFAULT})` },
  },
} as const;
type ListQuery = SyncQuery & { per_page?: number };
const RECORD_ERRORS = { 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] } as const;

function registerKind<Fields, Record extends { id: number }>(app: FastifyInstance, db: Db, kind: ContactKind<Fields, Record>, ifMatchRequired: boolean): void {
  const collection = `/organizations/:orgId/${kind.path}`;
  const member = `${collection}/:id`;
  const tags = [TAG.contacts];
  const notFound = () => new ApiError(404, API_ERROR.notFound);
  const ids = app.publicIds[kind.idKind];
  /** A record as the API shows it: its public id, and its version as `etag`. */
  const shown = (record: Versioned<Record>) => publicContact(ids, record);
  /** The stored id of the path's public id; a number that is none is an id the organisation does not have. */
  const storedId = (request: { params: OrganizationRecordParams }) => {
    const id = ids.toStored(request.params.id);
    if (id === undefined) throw notFound();
    return id;
  };

  app.get<{ Params: OrganizationParams; Querystring: ListQuery }>(
    collection,
    {
      schema: {
        tags,
        summary: `The organisation's ${kind.noun}s, oldest first (a manager); with updated_since or cursor, what changed and what was removed since, oldest change first`,
        params: organizationParams,
        querystring: listQuery,
        response: { 200: wire(withSyncProperties(kind.listAnswer, kind.listKey, publicRemovalSchema)), ...errorAnswers(ACCESS_ERRORS) },
      },
    },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const start = syncStartOf(request.query, kind.table.name, ids);
      if (start) {
        const page = await syncRead(contactChanges(db, kind.table, request.params.orgId, { ...start, limit: request.query.per_page ?? SYNC_PAGE_DEFAULT }));
        return syncAnswer(kind.listKey, kind.table.name, page, { ids, show: shown, removal: ({ id, deletedAt }) => ({ id: ids.toPublic(id), deletedAt }) });
      }
      refuseInSync({ per_page: request.query.per_page });
      return { [kind.listKey]: (await listContacts(db, kind.table, request.params.orgId)).map(shown) };
    },
  );

  app.get<{ Params: OrganizationRecordParams }>(
    member,
    {
      schema: {
        tags,
        summary: `One ${kind.noun} of the organisation (a manager), its version in ETag`,
        params: organizationRecordParams,
        response: { 200: { ...wire(kind.oneAnswer), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request, reply) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const record = await findContact(db, kind.table, request.params.orgId, storedId(request));
      if (!record) throw notFound();
      sendEtag(reply, record.etag);
      return { [kind.oneKey]: shown(record) };
    },
  );

  app.post<{ Params: OrganizationParams; Body: Fields }>(
    collection,
    {
      config: { audit: [`${kind.table.auditType}.created`] },
      schema: {
        tags,
        summary: `Add a ${kind.noun} (a manager); the answer carries its id`,
        params: organizationParams,
        body: formBody(kind.form),
        response: { 201: { ...wire(kind.oneAnswer), headers: etagHeader }, ...errorAnswers(ACCESS_ERRORS) },
      },
    },
    async (request, reply) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const record = await createContact(db, kind.table, request.params.orgId, request.body as Fields, auditOf(request, request.params.orgId));
      request.log.info({ organizationId: request.params.orgId, kind: kind.path }, 'contact added');
      sendEtag(reply, record.etag);
      return reply.code(201).send({ [kind.oneKey]: shown(record) });
    },
  );

  app.patch<{ Params: OrganizationRecordParams; Body: Fields }>(
    member,
    {
      config: { audit: [`${kind.table.auditType}.updated`] },
      schema: {
        tags,
        summary: `Change a ${kind.noun} (a manager): every field, as on creation; with If-Match, only the version named`,
        params: organizationRecordParams,
        headers: conditionalWrite.headers,
        body: formBody(kind.form),
        response: { 200: { ...wire(kind.oneAnswer), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const id = storedId(request);
      const precondition = preconditionOf(request, ifMatchRequired);
      const change = await updateContact(db, kind.table, orgId, id, { fields: request.body as Fields, precondition }, auditOf(request, orgId));
      if (change.outcome === 'not_found') throw notFound();
      if (change.outcome === 'stale') throw await preconditionFailed(db, request, orgId, { type: kind.table.auditType, id });
      sendEtag(reply, change.result.etag);
      return { [kind.oneKey]: shown(change.result) };
    },
  );

  app.delete<{ Params: OrganizationRecordParams }>(
    member,
    {
      config: { audit: [`${kind.table.auditType}.deleted`] },
      schema: {
        tags,
        summary: `Delete a ${kind.noun} (a manager); with If-Match, only the version named`,
        params: organizationRecordParams,
        headers: conditionalWrite.headers,
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const id = storedId(request);
      const change = await deleteContact(db, kind.table, orgId, id, preconditionOf(request, ifMatchRequired), auditOf(request, orgId));
      if (change.outcome === 'not_found') throw notFound();
      if (change.outcome === 'stale') throw await preconditionFailed(db, request, orgId, { type: kind.table.auditType, id });
      request.log.info({ organizationId: request.params.orgId, kind: kind.path, id: request.params.id }, 'contact deleted');
      return reply.code(204).send();
    },
  );
}

export const contactsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  registerKind(app, app.db, CONTACT_KIND, app.config.ifMatchRequired);
  registerKind(app, app.db, BILLING_CONTACT_KIND, app.config.ifMatchRequired);
};
