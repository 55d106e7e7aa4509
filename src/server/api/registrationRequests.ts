/** POST /api/v2/registration_requests: a company applies for a corporate account (SPEC §2.16). */
import type { FastifyPluginAsync } from 'fastify';
import { registrationRequestAnswerSchema, type RegistrationRequestAnswer } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { DEFAULT_LANGUAGE } from '../../common/languages.js';
import { sendRegistrationMails } from '../domain/registrationMails.js';
import { createRegistrationRequest } from '../domain/registrationRequests.js';
import { requestLanguage } from './language.js';
import { CAPTCHA_FIELDS, mailRequestGuard } from './mailGuard.js';
import { TAG } from './openapi.js';
import { wire } from './schemas.js';
import { formBody, getFormSchemas } from './validation.js';

const FORM = 'registration-request';

export const registrationRequestsRoutes: FastifyPluginAsync = async (app) => {
  // the mails list the form's fields in its order, with its titles and option labels (issue 4 §7)
  type Property = { title?: string; oneOf?: Array<{ const?: unknown; title?: string }> };
  const fields = Object.entries((getFormSchemas()[FORM]!.properties ?? {}) as Record<string, Property>)
    .filter(([name]) => !CAPTCHA_FIELDS.includes(name))
    .map(([name, property]) => ({
      name,
      title: property.title ?? name,
      options: Object.fromEntries((property.oneOf ?? []).filter((option) => option.title).map((option) => [String(option.const), option.title!])),
    }));

  const guardMailRequest = mailRequestGuard(app);

  app.post<{ Body: Forms['registration-request']; Reply: RegistrationRequestAnswer }>(
    '/registration_requests',
    {
      // a stranger's request: no organisation yet (issue 21)
      config: { audit: [] },
      schema: {
        tags: [TAG.registration],
        summary: 'Apply for a corporate account',
        body: formBody(FORM),
        response: { 201: wire(registrationRequestAnswerSchema) },
      },
    },
    async (request, reply) => {
      // it mails the address it is given: limited and behind the captcha like the other mail requests (issue 7 finding 8)
      await guardMailRequest(request, reply, request.body);
      const registrationRequest = await createRegistrationRequest(app.db, request.body);
      // the staff notification and the applicant's confirmation; the request is stored either way
      const mailErrors = await sendRegistrationMails(
        { mailer: app.mailer, notifyTo: app.config.registrationNotifyTo, fields },
        registrationRequest,
        requestLanguage(request) ?? DEFAULT_LANGUAGE,
      );
      for (const error of mailErrors) request.log.error({ err: error, registrationRequestId: registrationRequest.id }, 'registration request mail not sent');
      return reply.code(201).send({ registrationRequest: { ...registrationRequest, createdAt: registrationRequest.createdAt.toISOString() } });
    },
  );
};
