/**
 * Content the page frame shows (SPEC 2.2, §7 Content), public like the notices: the announcement articles
 * (GET announcements/articles) and the runtime settings the browser needs (GET portal_settings: the announcement page,
 * the support chat, the calendar's closed days). Nothing here depends on who asks; the announcements icon itself is shown to signed-in admins.
 */
import type { FastifyPluginAsync } from 'fastify';
import {
  announcementArticlesAnswerSchema,
  portalSettingsAnswerSchema,
  type AnnouncementArticlesAnswer,
  type PortalSettingsAnswer,
} from '../../common/api/answers.js';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.js';
import { tokyoToday } from '../../common/subscriptionRules.js';
import { listAnnouncementArticles } from '../domain/announcements.js';
import { browserClosedDays } from '../domain/businessCalendar.js';
import { TAG } from './openapi.js';
import { languageQuery, wire } from './schemas.js';

export const contentRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { lang?: Language }; Reply: AnnouncementArticlesAnswer }>(
    '/announcements/articles',
    {
      schema: {
        tags: [TAG.content],
        summary: 'Announcement articles, newest first',
        description: 'The published articles (at most 50), each with its title, publication date and body in the language asked for.',
        querystring: languageQuery('The language of titles and bodies (default ja)'),
        response: { 200: wire(announcementArticlesAnswerSchema) },
      },
    },
    async (request) => ({ articles: await listAnnouncementArticles(app.db, request.query.lang ?? DEFAULT_LANGUAGE) }),
  );

  app.get<{ Reply: PortalSettingsAnswer }>(
    '/portal_settings',
    {
      schema: {
        tags: [TAG.content],
        summary: "The portal's runtime settings for the browser",
        description:
          'The announcement page the header opens, the support chat widget (absent when none is configured), and the closed weekdays (public holidays and the provider\'s closed days) from a month ago to 200 days ahead, for the start-date picker.',
        response: { 200: wire(portalSettingsAnswerSchema) },
      },
    },
    async () => {
      const { announcementPageUrl, supportChat } = app.config;
      return {
        announcementPageUrl,
        closedDays: browserClosedDays(tokyoToday()),
        ...(supportChat ? { supportChat: { scriptUrl: supportChat.scriptUrl, keys: { ...supportChat.keys } } } : {}),
      };
    },
  );
};
