/**
 * What keeps an organisation's deadlines in view (issue 30):
 *
 *   GET organizations/{orgId}/overview?lang=              → the manager's overview on Home (its admins; a member's without
 *                                                            the invitations and the open classes)
 *   GET admins/me/notification_settings                   → {deadlineReminders}
 *   PUT admins/me/notification_settings {deadline_reminders} → {deadlineReminders}: the admin's own choice (My Account)
 */
import type { FastifyPluginAsync } from 'fastify';
import { notificationSettingsAnswerSchema, overviewAnswerSchema, type NotificationSettingsAnswer, type OverviewAnswer } from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.js';
import { tokyoToday } from '../../common/subscriptionRules.js';
import { organizationOverview } from '../domain/overview.js';
import { requireAffiliation, signedIn, useAuthentication } from './auth.js';
import { TAG } from './openapi.js';
import { errorAnswers, languageQuery, organizationParams, wire, type OrganizationParams } from './schemas.js';

const settingsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['deadlineReminders'],
  properties: { deadlineReminders: { type: 'boolean', description: "get the reminder mails of the organisations' change deadlines (managers)" } },
} as const;

export const overviewRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { db, config } = app;

  app.get<{ Params: OrganizationParams; Querystring: { lang?: Language }; Reply: OverviewAnswer }>(
    '/organizations/:orgId/overview',
    {
      schema: {
        tags: [TAG.corporateSubscriptions],
        summary: "The organisation's deadlines at a glance (its admins): upcoming applications with their change deadlines, learners by month; for a manager, open invitations and classes too",
        params: organizationParams,
        querystring: languageQuery('The language of the service group names (default ja)'),
        response: { 200: wire(overviewAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const role = await requireAffiliation(db, signedIn(request), orgId);
      const reader = {
        organizationId: orgId,
        language: request.query.lang ?? DEFAULT_LANGUAGE,
        today: tokyoToday(),
        enlargementDays: config.subscriptions.enlargementDays,
        nearBusinessDays: config.deadlineReminders.businessDays,
      };
      return organizationOverview(db, reader, role);
    },
  );

  app.get<{ Reply: NotificationSettingsAnswer }>(
    '/admins/me/notification_settings',
    { schema: { tags: [TAG.account], summary: 'The mails the signed-in admin chose to get', response: { 200: wire(notificationSettingsAnswerSchema) } } },
    async (request) => {
      const row = await db.selectFrom('admins').select('deadlineReminders').where('id', '=', signedIn(request).id).executeTakeFirstOrThrow();
      return { deadlineReminders: row.deadlineReminders };
    },
  );

  app.put<{ Body: { deadlineReminders: boolean }; Reply: NotificationSettingsAnswer }>(
    '/admins/me/notification_settings',
    {
      // the admin's own preference: no organisation's trail shows it
      config: { audit: [] },
      schema: { tags: [TAG.account], summary: 'Turn the change-deadline reminders on or off for the signed-in admin', body: settingsBody, response: { 200: wire(notificationSettingsAnswerSchema) } },
    },
    async (request) => {
      const { deadlineReminders } = request.body;
      await db.updateTable('admins').set({ deadlineReminders }).where('id', '=', signedIn(request).id).execute();
      return { deadlineReminders };
    },
  );
};
