/**
 * The organisation's audit trail (issue 21), a manager's calls:
 *
 *   GET organizations/{orgId}/audit_events      ?from&to&days&admin_id&action&target_type&target_id&cursor&limit → {audit_events, next_cursor}
 *   GET organizations/{orgId}/audit_events      ?updated_since|cursor&limit → {audit_events, next_cursor, has_more}: the entries
 *                                               written since, oldest first (incremental sync, api/sync.ts)
 *   GET organizations/{orgId}/audit_events/csv  the same filters → the list as CSV (UTF-8 with BOM, CRLF), streamed;
 *                                               429 while the admin's previous export is being sent (api/csvExports.ts)
 *
 * The organisation must be the session's and the caller its manager (api/auth.ts); the query joins nothing else, so
 * another organisation's events are never read.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { auditEventsAnswerSchema, type AuditEventsAnswer } from '../../common/api/auditAnswers.js';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../common/auditActions.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { addDays, tokyoToday } from '../../common/subscriptionRules.js';
import { auditEventChanges, auditEventsCsv, decodeCursor, listAuditEvents, type AuditFilter } from '../domain/audit.js';
import { isSyncCursor } from '../domain/sync.js';
import { requireManager, signedIn, useAuthentication } from './auth.js';
import { CSV_EXPORT_ERRORS, sendCsvExport } from './csvExports.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, organizationParams, wire, type OrganizationParams } from './schemas.js';
import { refuseInSync, syncAnswer, syncQueryProperties, syncStartOf, type SyncAnswer } from './sync.js';
import { withSyncProperties } from '../../common/api/syncAnswers.js';

export const AUDIT_PAGE_MAX = 100;
const AUDIT_PAGE_DEFAULT = 50;

// an empty value is no filter: the Activity log's selects send their 'all' choice that way
const day = { type: 'string', anyOf: [{ const: '' }, { format: 'date' }] } as const;
const filterProperties = {
  from: { ...day, description: 'The first day (Tokyo), inclusive' },
  to: { ...day, description: 'The last day (Tokyo), inclusive' },
  days: { type: 'string', pattern: '^([1-9]\\d{0,2})?$', description: 'The last this many days (Tokyo), today included (with from: the later first day)' },
  admin_id: { type: 'string', pattern: '^([1-9]\\d{0,8})?$', description: "The acting admin's id" },
  action: { type: 'string', enum: ['', ...AUDIT_ACTIONS] },
  target_type: { type: 'string', enum: ['', ...AUDIT_TARGET_TYPES] },
  target_id: { type: 'string', maxLength: 100, description: "The target's id: one target's history (with target_type)" },
} as const;
const filterQuery = { type: 'object', additionalProperties: false, properties: filterProperties } as const;
const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    cursor: { type: 'string', maxLength: 200, description: "The previous page's next_cursor (a page's, or a sync's: then the entries written since, oldest first)" },
    updated_since: syncQueryProperties.updated_since,
    limit: { type: 'integer', minimum: 1, maximum: AUDIT_PAGE_MAX, default: AUDIT_PAGE_DEFAULT },
  },
} as const;
type FilterQuery = FromSchema<typeof filterQuery>;
type PageQuery = FromSchema<typeof pageQuery>;

/** Both bounds apply: the later first day (YYYY-MM-DD compares as text). */
const latestDay = (...days: Array<string | undefined>) => days.filter(Boolean).sort().at(-1);

const filterOf = (query: FilterQuery): AuditFilter => ({
  from: latestDay(query.from, query.days ? addDays(tokyoToday(), 1 - Number(query.days)) : undefined),
  to: query.to || undefined,
  adminId: query.admin_id ? Number(query.admin_id) : undefined,
  action: query.action || undefined,
  targetType: query.target_type || undefined,
  targetId: query.target_id || undefined,
});

async function requireManagerOf(request: FastifyRequest<{ Params: OrganizationParams }>): Promise<number> {
  await requireManager(request.server.db, signedIn(request), request.params.orgId);
  return request.params.orgId;
}

export const auditEventsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const tags = [TAG.auditTrail];

  app.get<{ Params: OrganizationParams; Querystring: PageQuery; Reply: AuditEventsAnswer | SyncAnswer }>(
    '/organizations/:orgId/audit_events',
    {
      schema: {
        tags,
        summary:
          "The organisation's audit trail, newest first, a page at a time (a manager): who did what, when, with each change's before and after; with updated_since or a sync's cursor, the entries written since, oldest first (no filter then)",
        params: organizationParams,
        querystring: pageQuery,
        response: { 200: wire(withSyncProperties(auditEventsAnswerSchema, 'auditEvents')), ...errorAnswers({ 400: [API_ERROR.badRequest], 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      const organizationId = await requireManagerOf(request);
      const { query } = request;
      if (query.updated_since !== undefined || (query.cursor !== undefined && isSyncCursor(query.cursor))) {
        const start = syncStartOf(query, 'auditEvents', app.publicIds.auditEvent)!;
        const { from, to, days, admin_id, action, target_type, target_id } = query;
        refuseInSync(Object.fromEntries(Object.entries({ from, to, days, admin_id, action, target_type, target_id }).map(([field, value]) => [field, value || undefined])));
        const page = await auditEventChanges(app.db, organizationId, { ...start, limit: query.limit ?? AUDIT_PAGE_DEFAULT }, app.publicIds);
        return syncAnswer('auditEvents', 'auditEvents', page, { ids: app.publicIds.auditEvent });
      }
      const cursor = request.query.cursor ? decodeCursor(request.query.cursor, app.publicIds) : undefined;
      if (request.query.cursor && !cursor) throw new ApiError(400, API_ERROR.badRequest);
      return listAuditEvents(app.db, organizationId, filterOf(request.query), { cursor, limit: request.query.limit ?? AUDIT_PAGE_DEFAULT }, app.publicIds);
    },
  );

  app.get<{ Params: OrganizationParams; Querystring: FilterQuery }>(
    '/organizations/:orgId/audit_events/csv',
    {
      schema: {
        tags,
        summary: `The filtered audit trail as CSV, newest first, at most ${app.config.csvExportMaxRows} rows, then a line saying it was cut (a manager): UTF-8 with a byte-order mark, CRLF; one export at a time per admin`,
        params: organizationParams,
        querystring: filterQuery,
        response: { 200: { type: 'string', description: 'text/csv; charset=utf-8' }, ...errorAnswers(CSV_EXPORT_ERRORS) },
      },
    },
    async (request, reply) => {
      const organizationId = await requireManagerOf(request);
      const filter = filterOf(request.query);
      return sendCsvExport(request, reply, () => auditEventsCsv(app.db, organizationId, filter, app.publicIds, app.config.csvExportMaxRows), 'activity-log.csv');
    },
  );
};
