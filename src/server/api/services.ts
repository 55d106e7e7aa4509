/**
 * Services and classes (SPEC §7): the Home grid (GET services), Service Details (GET services/{id}), the service
 * groups and their services (the application wizards read them), and the organisation's project classes. Every
 * answer is the session's organisation's (the token's glopla_id, through the caller's affiliation): the services it
 * may use, the links the caller's role sees, rewritten for the caller (domain/services.ts). A group or service the
 * organisation does not use answers 404 like an unknown one (the browser goes to top).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  groupServicesAnswerSchema,
  projectClassesAnswerSchema,
  serviceAnswerSchema,
  serviceGroupAnswerSchema,
  serviceGroupsAnswerSchema,
  servicesAnswerSchema,
  type GroupServicesAnswer,
  type ProjectClassesAnswer,
  type ServiceAnswer,
  type ServiceGroupAnswer,
  type ServiceGroupsAnswer,
  type ServicesAnswer,
} from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.js';
import { findService, listGroupServices, listProjectClasses, listServiceCards, listServiceGroups, type CatalogueReader } from '../domain/services.js';
import { ApiError } from './errors.js';
import { requireManager, requireSessionOrganization, signedIn, useAuthentication } from './auth.js';
import { TAG } from './openapi.js';
import { errorAnswers, idParams, languageQuery, organizationParams, wire, type IdParams, type OrganizationParams } from './schemas.js';

type LanguageQuery = { Querystring: { lang?: Language } };

export const servicesRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  /** The caller as a reader of the catalogue; 403 when the session's organisation is not one of theirs. */
  async function reader(request: FastifyRequest<LanguageQuery>): Promise<CatalogueReader> {
    const admin = signedIn(request);
    const { organizationId, gloplaId, role } = await requireSessionOrganization(app.db, admin);
    return { organizationId, gloplaId, role, token: admin.accessToken ?? '', language: request.query.lang ?? DEFAULT_LANGUAGE, exceptions: app.config.serviceLinks };
  }

  const lang = languageQuery('The language of names, texts and link labels (default ja)');

  app.get<LanguageQuery & { Reply: ServicesAnswer }>(
    '/services',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'The Home grid: one card per service group the organisation may use (its representative service)',
        querystring: lang,
        response: { 200: wire(servicesAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      const { organizationId, language } = await reader(request);
      return { services: await listServiceCards(app.db, organizationId, language) };
    },
  );

  app.get<LanguageQuery & { Params: IdParams; Reply: ServiceAnswer }>(
    '/services/:id',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: "Service Details: a service with the links the caller's role sees, rewritten for the caller",
        params: idParams,
        querystring: lang,
        response: { 200: wire(serviceAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const service = await findService(app.db, await reader(request), request.params.id);
      if (!service) throw new ApiError(404, API_ERROR.notFound);
      return { service };
    },
  );

  app.get<LanguageQuery & { Reply: ServiceGroupsAnswer }>(
    '/service_groups',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'The service groups the organisation may use',
        querystring: lang,
        response: { 200: wire(serviceGroupsAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => ({ serviceGroups: await listServiceGroups(app.db, await reader(request)) }),
  );

  app.get<LanguageQuery & { Params: IdParams; Reply: ServiceGroupAnswer }>(
    '/service_groups/:id',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'A service group: how its services are chosen, its user limit and class size',
        params: idParams,
        querystring: lang,
        response: { 200: wire(serviceGroupAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const [serviceGroup] = await listServiceGroups(app.db, await reader(request), request.params.id);
      if (!serviceGroup) throw new ApiError(404, API_ERROR.notFound);
      return { serviceGroup };
    },
  );

  app.get<LanguageQuery & { Params: IdParams; Reply: GroupServicesAnswer }>(
    '/service_groups/:id/services',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: "A group's services the organisation may use (terms or subjects), with discontinuation and last start date",
        params: idParams,
        querystring: lang,
        response: { 200: wire(groupServicesAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const services = await listGroupServices(app.db, await reader(request), request.params.id);
      if (!services) throw new ApiError(404, API_ERROR.notFound);
      return { services };
    },
  );

  app.get<{ Params: OrganizationParams; Reply: ProjectClassesAnswer }>(
    '/organizations/:orgId/project_classes/bundled',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: "The organisation's project classes, bundled and gls, with their projects (managers: the application wizards)",
        params: organizationParams,
        response: { 200: wire(projectClassesAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      await requireManager(app.db, signedIn(request), request.params.orgId);
      return listProjectClasses(app.db, request.params.orgId);
    },
  );
};
