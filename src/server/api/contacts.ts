/**
 * Contacts (delivery addresses) and billing contacts of the session's organisation (SPEC §7 'Contacts', §3 Contact
 * and Billing contact, 2.12): five calls each, the billing ones reading billingContacts / billingContact.
 *
 *   GET    organizations/{orgId}/contacts          → {contacts}
 *   GET    organizations/{orgId}/contacts/{id}     → {contact}
 *   POST   organizations/{orgId}/contacts          the contact's fields → 201 {contact} (its id is used)
 *   PATCH  organizations/{orgId}/contacts/{id}     the contact's fields → {contact}
 *   DELETE organizations/{orgId}/contacts/{id}     → 204
 *   (the same on organizations/{orgId}/billing_contacts)
 *
 * Who: managers only, reading too. Contacts exist for applications, and applying for services is a manager's call
 * (SPEC §6); the addresses, names, phone numbers and e-mail addresses in them are nothing a member needs. The
 * organisation must be the session's (token glopla_id) and the caller its manager, else 403. An id the organisation
 * does not have — another organisation's included — answers 404 not_found.
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
  createBillingContact,
  createContact,
  deleteBillingContact,
  deleteContact,
  findBillingContact,
  findContact,
  listBillingContacts,
  listContacts,
  updateBillingContact,
  updateContact,
  type BillingContactFields,
  type ContactFields,
} from '../domain/contacts.js';
import { requireManager, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, organizationParams, organizationRecordParams, wire, type OrganizationParams, type OrganizationRecordParams } from './schemas.js';
import { formBody } from './validation.js';

/** One kind of contact: its path, form, answer keys and store. */
interface ContactKind<Fields, Record> {
  path: string;
  form: FormName;
  /** What the OpenAPI summaries call it. */
  noun: string;
  listKey: string;
  oneKey: string;
  listAnswer: object;
  oneAnswer: object;
  list(db: Db, organizationId: number): Promise<Record[]>;
  find(db: Db, organizationId: number, id: number): Promise<Record | undefined>;
  create(db: Db, organizationId: number, fields: Fields): Promise<Record>;
  update(db: Db, organizationId: number, id: number, fields: Fields): Promise<Record | undefined>;
  remove(db: Db, organizationId: number, id: number): Promise<boolean>;
}

const CONTACTS: ContactKind<ContactFields, Contact> = {
  path: 'contacts',
  form: 'contact',
  noun: 'contact (delivery address)',
  listKey: 'contacts',
  oneKey: 'contact',
  listAnswer: contactsAnswerSchema,
  oneAnswer: contactAnswerSchema,
  list: listContacts,
  find: findContact,
  create: createContact,
  update: updateContact,
  remove: deleteContact,
};

const BILLING_CONTACTS: ContactKind<BillingContactFields, BillingContact> = {
  path: 'billing_contacts',
  form: 'billing-contact',
  noun: 'billing contact',
  listKey: 'billingContacts',
  oneKey: 'billingContact',
  listAnswer: billingContactsAnswerSchema,
  oneAnswer: billingContactAnswerSchema,
  list: listBillingContacts,
  find: findBillingContact,
  create: createBillingContact,
  update: updateBillingContact,
  remove: deleteBillingContact,
};

const ACCESS_ERRORS = { 403: [API_ERROR.forbidden] } as const;
const RECORD_ERRORS = { 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] } as const;

function registerKind<Fields, Record>(app: FastifyInstance, db: Db, kind: ContactKind<Fields, Record>): void {
  const collection = `/organizations/:orgId/${kind.path}`;
  const member = `${collection}/:id`;
  const tags = [TAG.contacts];
  const notFound = () => new ApiError(404, API_ERROR.notFound);

  app.get<{ Params: OrganizationParams }>(
    collection,
    {
      schema: {
        tags,
        summary: `The organisation's ${kind.noun}s, oldest first (a manager)`,
        params: organizationParams,
        response: { 200: wire(kind.listAnswer), ...errorAnswers(ACCESS_ERRORS) },
      },
    },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      return { [kind.listKey]: await kind.list(db, request.params.orgId) };
    },
  );

  app.get<{ Params: OrganizationRecordParams }>(
    member,
    {
      schema: {
        tags,
        summary: `One ${kind.noun} of the organisation (a manager)`,
        params: organizationRecordParams,
        response: { 200: wire(kind.oneAnswer), ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const record = await kind.find(db, request.params.orgId, request.params.id);
      if (!record) throw notFound();
      return { [kind.oneKey]: record };
    },
  );

  app.post<{ Params: OrganizationParams; Body: Fields }>(
    collection,
    {
      schema: {
        tags,
        summary: `Add a ${kind.noun} (a manager); the answer carries its id`,
        params: organizationParams,
        body: formBody(kind.form),
        response: { 201: wire(kind.oneAnswer), ...errorAnswers(ACCESS_ERRORS) },
      },
    },
    async (request, reply) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const record = await kind.create(db, request.params.orgId, request.body as Fields);
      request.log.info({ organizationId: request.params.orgId, kind: kind.path }, 'contact added');
      return reply.code(201).send({ [kind.oneKey]: record });
    },
  );

  app.patch<{ Params: OrganizationRecordParams; Body: Fields }>(
    member,
    {
      schema: {
        tags,
        summary: `Change a ${kind.noun} (a manager): every field, as on creation`,
        params: organizationRecordParams,
        body: formBody(kind.form),
        response: { 200: wire(kind.oneAnswer), ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const record = await kind.update(db, request.params.orgId, request.params.id, request.body as Fields);
      if (!record) throw notFound();
      return { [kind.oneKey]: record };
    },
  );

  app.delete<{ Params: OrganizationRecordParams }>(
    member,
    {
      schema: {
        tags,
        summary: `Delete a ${kind.noun} (a manager)`,
        params: organizationRecordParams,
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorAnswers(RECORD_ERRORS) },
      },
    },
    async (request, reply) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      if (!(await kind.remove(db, request.params.orgId, request.params.id))) throw notFound();
      request.log.info({ organizationId: request.params.orgId, kind: kind.path, id: request.params.id }, 'contact deleted');
      return reply.code(204).send();
    },
  );
}

export const contactsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  registerKind(app, app.db, CONTACTS);
  registerKind(app, app.db, BILLING_CONTACTS);
};
