/**
 * The learners of the session's organisation (SPEC §7 Users, 2.15 Users), a manager's calls (SPEC §6: the Users page
 * is admin-only):
 *
 *   GET   organizations/{orgId}/users                          → {users}, streamed
 *   GET   organizations/{orgId}/users?per_page=&after=         → {users, nextAfter}: a page by id after the learner `after`
 *   GET   organizations/{orgId}/users?updated_since=|cursor=&per_page=
 *                                                              → {users, deleted, nextCursor, hasMore}: what changed (api/sync.ts)
 *   GET   organizations/{orgId}/users/csv                      → the list as CSV text (the page saves it with a BOM), streamed;
 *                                                                429 while the admin's previous export is being sent
 *   GET   organizations/{orgId}/users/{userId}                → {user}, its version in ETag (issue 28)
 *   PATCH organizations/{orgId}/users/{userId}   {last_name, first_name, kana_last_name, kana_first_name, email, name_id}
 *                                                              → {user}; 422 {errors} (names/e-mail changed, nameId rules)
 *   POST  organizations/{orgId}/users/preview    multipart, field csv → {users}; 400 {error: exceedMaxSize | fileNotFound |
 *                                                  invalidCsvFormat | invalidHeader | malformedCsv}; 422 {errors, users}
 *   POST  organizations/{orgId}/users/bulk_update  {users}      → {users}; 422 {errors, users}; all rows or none; 412 {rows}
 *                                                                (stale rows); IF_MATCH_REQUIRED: 428 {rows} (rows changing a
 *                                                                learner without their etag)
 *
 * The organisation must be the session's (token glopla_id) and the caller its manager (api/auth.ts requireManager).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Language } from '../../common/languages.js';
import type { LastChange } from '../domain/versions.js';
import { changeLanguage, conditionalWrite, etagHeader, preconditionOf, sendEtag } from './preconditions.js';
import multipart, { type MultipartFile } from '@fastify/multipart';
import {
  organizationUserAnswerSchema,
  organizationUsersAnswerSchema,
  organizationUsersPageSchema,
  userRowErrorsAnswerSchema,
  type OrganizationUserAnswer,
} from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { API_ERROR, CSV_FORMAT_ERRORS } from '../../common/errorCodes.js';
import {
  bulkUpdateUsers,
  findUser,
  CsvFormatProblem,
  learnerChanges,
  lastLearnerChange,
  previewUsersCsv,
  updateUser,
  userJsonBatches,
  userPage,
  usersCsv,
  USERS_PAGE_MAX,
  type StaleRow,
  type UserInput,
} from '../domain/organizationUsers.js';
import { auditOf } from './audit.js';
import { requireManager, requireManagerBeforeBody, signedIn, useAuthentication } from './auth.js';
import { CSV_EXPORT_ERRORS, sendCsvExport } from './csvExports.js';
import { controlCharacterError, formHasControlCharacter } from './controlCharacters.js';
import { ApiError, PreconditionFailed } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, id, MAX_ID, organizationParams, wire, type OrganizationParams } from './schemas.js';
import { refuseInSync, SYNC_PAGE_DEFAULT, syncAnswer, syncQueryProperties, syncRead, syncStartOf, type SyncQuery } from './sync.js';
import { removalSchema, withSyncProperties } from '../../common/api/syncAnswers.js';
import { installStreamedListParser } from './streamedJsonBody.js';
import { JSON_TYPE, streamedJsonList, streamedList, streamedWireList, toWire, wireItems } from './wire.js';
import { formBody, FormValidationError } from './validation.js';

/** Params of organizations/{orgId}/users/{userId}. */
const organizationUserParams = {
  type: 'object',
  additionalProperties: false,
  properties: {
    orgId: { ...id, description: "the organisation's id: the one the session was signed in for" },
    userId: id,
  },
  required: ['orgId', 'userId'],
} as const;
interface OrganizationUserParams {
  orgId: number;
  userId: number;
}

/** The most stale rows a bulk update's 412 names (each a look into the trail). */
const STALE_ROWS_NAMED = 100;

/** GET users' paging (issue 27): without per_page the whole list, as SPEC §7 has it. */
const usersQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    per_page: { type: 'integer', minimum: 1, maximum: USERS_PAGE_MAX, description: 'learners a page (the Users page asks 1,000 at a time as it scrolls); without it, every learner' },
    after: { type: 'integer', minimum: 0, maximum: MAX_ID, default: 0, description: "the page after this learner's id: the previous answer's next_after" },
    ...syncQueryProperties,
  },
} as const;
interface UsersQuery extends SyncQuery {
  per_page?: number;
  after: number;
}

/** A file part's name and file name, and the fields sent before it (issue 15 finding 5: checked for control characters). */
function multipartTexts(part: MultipartFile): Array<[string, string]> {
  const earlier = Object.values(part.fields)
    .flat()
    .flatMap((field): Array<[string, string]> => (!field ? [] : field.type === 'field' ? [[field.fieldname, String(field.value)]] : [[field.fieldname, field.filename]]));
  return [[part.fieldname, part.filename], ...earlier];
}

/** The most learners a bulk update carries (the SPEC leaves it open; README): a large provider's largest customer (issue 27), about what a CSV of USERS_CSV_MAX_BYTES's default holds. */
export const MAX_BULK_UPDATE_ROWS = 100_000;

const text255 = { type: 'string', maxLength: 255 } as const;
const userRowBody = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email', 'nameId'],
  properties: {
    id: { type: 'integer', minimum: 0, maximum: MAX_ID },
    lastName: text255,
    firstName: text255,
    kanaLastName: text255,
    kanaFirstName: text255,
    email: text255,
    nameId: { type: 'string', maxLength: 1000 },
    nameIdType: { type: ['string', 'null'] },
    etag: { type: 'string', maxLength: 100, description: "the learner's version as previewed: the row is written only on it (issue 28); under IF_MATCH_REQUIRED a row that changes its learner needs it (428)" },
  },
} as const;
/** The previewed rows as the preview answered them (camelCase here: bodies are camelCased before validation). */
const bulkUpdateBody = {
  type: 'object',
  additionalProperties: false,
  required: ['users'],
  // at most MAX_BULK_UPDATE_ROWS rows, in a body of at most USERS_BULK_UPDATE_MAX_BYTES (the route's bodyLimit; README)
  properties: { users: { type: 'array', maxItems: MAX_BULK_UPDATE_ROWS, items: userRowBody } },
} as const;

const formatErrors = errorAnswers({ 400: [...CSV_FORMAT_ERRORS], 403: [API_ERROR.forbidden] });

/** A bulk update's 428 under IF_MATCH_REQUIRED (issue 44 finding 6): the rows that change their learner without its etag. */
const unversionedRowsAnswer = {
  type: 'object',
  additionalProperties: false,
  description: `IF_MATCH_REQUIRED: rows that change their learner carry no etag (CSV line, learner id), at most the first ${STALE_ROWS_NAMED}; nothing is written`,
  properties: {
    error: { type: 'string', enum: [API_ERROR.preconditionRequired] },
    rows: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, properties: { row_no: { type: 'integer' }, id: { type: 'integer' } }, required: ['row_no', 'id'] },
    },
  },
  required: ['error', 'rows'],
} as const;

export const organizationUsersRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { config, db } = app;
  /** The 412 of a bulk update whose rows changed since they were previewed: each row (the first STALE_ROWS_NAMED) with who and when. */
  const staleRows = async (organizationId: number, stale: readonly StaleRow[], language: Language) => {
    const rows = await Promise.all(stale.slice(0, STALE_ROWS_NAMED).map(async (row) => ({ rowNo: row.rowNo, lastChange: await lastLearnerChange(db, organizationId, row.id, language) })));
    const latest = rows.map((row) => row.lastChange).reduce<LastChange | undefined>((last, change) => (change && (!last || change.at > last.at) ? change : last), undefined);
    return new PreconditionFailed(latest, rows);
  };
  // multipart for the preview only (this plugin's routes): one file, no larger than USERS_CSV_MAX_BYTES
  await app.register(multipart, { limits: { fileSize: config.usersCsvMaxBytes, files: 1, fields: 5, parts: 6 } });

  app.get<{ Params: OrganizationParams; Querystring: UsersQuery }>(
    '/organizations/:orgId/users',
    {
      schema: {
        tags: [TAG.organisationUsers],
        summary:
          "The organisation's learners (a manager), by id: every one, streamed, or a page of per_page after the learner `after`; with updated_since or cursor, what changed and what was removed since, per_page (default 100) at a time",
        params: organizationParams,
        querystring: usersQuerySchema,
        response: {
          200: wire(withSyncProperties(organizationUsersPageSchema, 'users', removalSchema)),
          ...errorAnswers({ 403: [API_ERROR.forbidden] }),
        },
      },
    },
    async (request, reply) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      const { per_page: perPage, after } = request.query;
      const start = syncStartOf(request.query, 'learners');
      if (start) {
        refuseInSync({ after: after === 0 ? undefined : after });
        const page = await syncRead(learnerChanges(db, request.params.orgId, { ...start, limit: perPage ?? SYNC_PAGE_DEFAULT }));
        return syncAnswer('users', 'learners', page, { removal: ({ id, deletedAt }) => ({ id, deletedAt }) });
      }
      if (perPage !== undefined) return userPage(db, request.params.orgId, { after, perPage });
      // streamed as it is read (the response schema documents it; Fastify serialises no stream)
      return reply.type(JSON_TYPE).send(streamedJsonList('users', userJsonBatches(db, request.params.orgId)));
    },
  );

  app.get<{ Params: OrganizationParams }>(
    '/organizations/:orgId/users/csv',
    {
      schema: {
        tags: [TAG.organisationUsers],
        summary: `The learners as CSV text (header id,lastName,firstName,kanaLastName,kanaFirstName,email,nameId), at most ${config.csvExportMaxRows} rows, then a line saying it was cut; the page saves it with a UTF-8 byte-order mark; one export at a time per admin`,
        params: organizationParams,
        response: { 200: { type: 'string', description: 'text/csv; charset=utf-8' }, ...errorAnswers(CSV_EXPORT_ERRORS) },
      },
    },
    async (request, reply) => {
      const orgId = request.params.orgId;
      await requireManager(db, signedIn(request), orgId);
      return sendCsvExport(request, reply, () => usersCsv(db, orgId, config.csvExportMaxRows));
    },
  );

  app.get<{ Params: OrganizationUserParams; Reply: OrganizationUserAnswer }>(
    '/organizations/:orgId/users/:userId',
    {
      schema: {
        tags: [TAG.organisationUsers],
        summary: "One learner (a manager), its version in ETag: the latest a changed-meanwhile edit shows beside the manager's (issue 28)",
        params: organizationUserParams,
        response: { 200: { ...wire(organizationUserAnswerSchema), headers: etagHeader }, ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request, reply) => {
      const { orgId, userId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const user = await findUser(db, orgId, userId);
      if (!user) throw new ApiError(404, API_ERROR.notFound);
      sendEtag(reply, user.etag);
      return { user };
    },
  );

  app.patch<{ Params: OrganizationUserParams; Body: Forms['organization-user']; Reply: OrganizationUserAnswer }>(
    '/organizations/:orgId/users/:userId',
    {
      config: { audit: ['user.nameIdChanged'] },
      schema: {
        tags: [TAG.organisationUsers],
        summary: "Change one learner's nameId (a manager); the names and e-mail are sent unchanged; with If-Match, only the version named",
        params: organizationUserParams,
        headers: conditionalWrite.headers,
        body: formBody('organization-user'),
        response: {
          200: { ...wire(organizationUserAnswerSchema), headers: etagHeader },
          ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }),
          ...conditionalWrite.answers,
        },
      },
    },
    async (request, reply) => {
      const { orgId, userId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const result = await updateUser(db, orgId, userId, request.body, auditOf(request, orgId), preconditionOf(request, config.ifMatchRequired));
      if (!result.ok) {
        if (result.reason === 'invalid') throw new FormValidationError(result.errors.map((error) => ({ ...error, meta: {} })));
        if (result.reason === 'stale') throw new PreconditionFailed(await lastLearnerChange(db, orgId, userId, changeLanguage(request)));
        throw new ApiError(404, API_ERROR.notFound);
      }
      sendEtag(reply, result.user.etag);
      request.log.info({ organizationId: orgId, userId }, 'learner updated');
      return { user: result.user };
    },
  );

  app.post<{ Params: OrganizationParams }>(
    '/organizations/:orgId/users/preview',
    {
      // a check: nothing is written
      config: { audit: [] },
      schema: {
        tags: [TAG.organisationUsers],
        summary: 'Check an edited learner CSV (multipart/form-data, file field csv) without writing: the users as read, or their row errors',
        consumes: ['multipart/form-data'],
        params: organizationParams,
        response: { 200: wire(organizationUsersAnswerSchema), 422: wire(userRowErrorsAnswerSchema), ...formatErrors },
      },
    },
    async (request, reply) => {
      const orgId = request.params.orgId;
      await requireManager(db, signedIn(request), orgId);
      if (!request.isMultipart()) throw new ApiError(400, API_ERROR.fileNotFound);
      let file: Buffer | undefined;
      try {
        const part = await request.file();
        if (part && formHasControlCharacter(multipartTexts(part))) {
          part.file.resume();
          throw controlCharacterError('multipart field');
        }
        if (part && part.fieldname === 'csv') file = await part.toBuffer();
        else if (part) part.file.resume(); // another field's file: read and dropped
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (error instanceof app.multipartErrors.RequestFileTooLargeError) throw new ApiError(400, API_ERROR.exceedMaxSize);
        if (error instanceof app.multipartErrors.FilesLimitError || error instanceof app.multipartErrors.PartsLimitError) throw new ApiError(400, API_ERROR.invalidCsvFormat);
        // a multipart body that cannot be read (broken boundary, cut short): no file came
        request.log.info({ err: error }, 'unreadable multipart body');
        throw new ApiError(400, API_ERROR.fileNotFound);
      }
      if (!file || file.length === 0) throw new ApiError(400, API_ERROR.fileNotFound);
      try {
        // the rows as read, written a batch at a time (issue 27): the answer is never one object of 100,000 learners
        const { errors, users } = await previewUsersCsv(db, orgId, file, wireItems);
        return reply.code(errors.length > 0 ? 422 : 200).type(JSON_TYPE).send(streamedWireList('users', users, errors.length > 0 ? { errors } : {}));
      } catch (error) {
        if (error instanceof CsvFormatProblem) throw new ApiError(400, error.code);
        throw error;
      }
    },
  );

  // its body read as it arrives, a row at a time (api/streamedJsonBody.ts): 100,000 learners are 20 MB of JSON
  await app.register(async (bulk) => {
    installStreamedListParser(bulk, 'users');
    bulk.post<{ Params: OrganizationParams; Body: { users: UserInput[] } }>(
      '/organizations/:orgId/users/bulk_update',
      {
        // a large organisation's previewed rows are more than Fastify's default 1 MiB (issue 19)
        bodyLimit: config.usersBulkUpdateMaxBytes,
        // the manager check before the body is read (up to USERS_BULK_UPDATE_MAX_BYTES): anyone else is answered 403 at once
        onRequest: requireManagerBeforeBody,
        config: { audit: ['users.bulkUpdated'] },
        schema: {
          tags: [TAG.organisationUsers],
          summary:
            'Write the previewed learners (a manager): checked again, then every changed nameId in one transaction (all or nothing); rows carrying their etag as previewed are written only on that version, else 412 naming them; under IF_MATCH_REQUIRED a row that changes its learner must carry its etag, else 428 naming them',
          params: organizationParams,
          body: bulkUpdateBody,
          response: { 200: wire(organizationUsersAnswerSchema), 422: wire(userRowErrorsAnswerSchema), 412: conditionalWrite.answers[412], 428: unversionedRowsAnswer, ...formatErrors },
        },
      },
      async (request, reply) => {
        const orgId = request.params.orgId;
        try {
          // refused: the errors and the rows as checked; written: the learners as they are now (each a batch at a time)
          const result = await bulkUpdateUsers(db, orgId, request.body.users, auditOf(request, orgId), config.ifMatchRequired);
          // as a PATCH without If-Match: 428 before anything else is said of the rows
          if (result.unversioned.length > 0) return reply.code(428).send(toWire({ error: API_ERROR.preconditionRequired, rows: result.unversioned.slice(0, STALE_ROWS_NAMED) }));
          if (result.stale.length > 0) throw await staleRows(orgId, result.stale, changeLanguage(request));
          if (result.refused) return reply.code(422).type(JSON_TYPE).send(streamedList('users', result.users, { errors: result.errors }));
          request.log.info({ organizationId: orgId, users: request.body.users.length }, 'learners bulk-updated');
          return reply.type(JSON_TYPE).send(streamedJsonList('users', result.learners));
        } catch (error) {
          if (error instanceof CsvFormatProblem) throw new ApiError(400, error.code);
          throw error;
        }
      },
    );
  });
};
