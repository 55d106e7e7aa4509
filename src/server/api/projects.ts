/**
 * The organisation's gls projects and classes (SPEC 2.1 class routes, 2.8 project layout; issue 17):
 *
 *   GET organizations/{orgId}/projects                                            → {projects}
 *   GET organizations/{orgId}/projects/{projectCode}                              → {project}
 *   GET organizations/{orgId}/projects/{projectCode}/classes/{projectClassId}     → {project, projectClass}
 *   GET organizations/{orgId}/projects/{projectCode}/corporate_subscriptions/{requestCode} → {project, projectClass}
 *
 * Managers of the organisation only (the class routes register learners, a manager's work: SPEC §6), else 403. An
 * unknown project, a class of another project or of another organisation, or a bundled class answers 404 not_found
 * (the page flashes 'unexpected error' and goes to top); so does an application that is not of a class of the project
 * the URL names (Edit learner registration (class)).
 */
import type { FastifyPluginAsync } from 'fastify';
import { projectAnswerSchema, projectClassAnswerSchema, projectsAnswerSchema, type ProjectAnswer, type ProjectClassAnswer, type ProjectsAnswer } from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { tokyoToday } from '../../common/subscriptionRules.js';
import { findProject, findProjectClass, findProjectSubscription, listProjects, type ProjectReader } from '../domain/projects.js';
import type { SignedInAdmin } from './auth.js';
import { requireManager, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, organizationParams, wire, type OrganizationParams } from './schemas.js';

const projectCode = { type: 'string', minLength: 1, maxLength: 40, description: "the project's code" } as const;
const projectParams = {
  type: 'object',
  additionalProperties: false,
  properties: { orgId: organizationParams.properties.orgId, projectCode },
  required: ['orgId', 'projectCode'],
} as const;
type ProjectParams = OrganizationParams & { projectCode: string };

const projectClassParams = {
  type: 'object',
  additionalProperties: false,
  properties: {
    orgId: organizationParams.properties.orgId,
    projectCode,
    projectClassId: { type: 'integer', minimum: 1, maximum: 2147483647 },
  },
  required: ['orgId', 'projectCode', 'projectClassId'],
} as const;
type ProjectClassParams = OrganizationParams & { projectCode: string; projectClassId: number };

const projectSubscriptionParams = {
  type: 'object',
  additionalProperties: false,
  properties: {
    orgId: organizationParams.properties.orgId,
    projectCode,
    requestCode: { type: 'string', minLength: 1, maxLength: 20, description: "the application's number ('A' + 9 digits)" },
  },
  required: ['orgId', 'projectCode', 'requestCode'],
} as const;
type ProjectSubscriptionParams = OrganizationParams & { projectCode: string; requestCode: string };

export const projectsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  async function reader(admin: SignedInAdmin, organizationId: number): Promise<ProjectReader> {
    await requireManager(app.db, admin, organizationId);
    return { organizationId, today: tokyoToday(), enlargementDays: app.config.subscriptions.enlargementDays };
  }

  app.get<{ Params: OrganizationParams; Reply: ProjectsAnswer }>(
    '/organizations/:orgId/projects',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: "The organisation's gls projects, their classes and each class's applications (managers: the project layout of Service Details)",
        params: organizationParams,
        response: { 200: wire(projectsAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => listProjects(app.db, await reader(signedIn(request), request.params.orgId)),
  );

  app.get<{ Params: ProjectParams; Reply: ProjectAnswer }>(
    '/organizations/:orgId/projects/:projectCode',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'One project with a gls class (managers: the class routes; its id is the projectId of single sign-on to product 4)',
        params: projectParams,
        response: { 200: wire(projectAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const found = await findProject(app.db, await reader(signedIn(request), request.params.orgId), request.params.projectCode);
      if (!found) throw new ApiError(404, API_ERROR.notFound);
      return found;
    },
  );

  app.get<{ Params: ProjectClassParams; Reply: ProjectClassAnswer }>(
    '/organizations/:orgId/projects/:projectCode/classes/:projectClassId',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'One gls class of one project, with its period (managers: Register Learners (class))',
        params: projectClassParams,
        response: { 200: wire(projectClassAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const { orgId, projectCode, projectClassId } = request.params;
      const found = await findProjectClass(app.db, await reader(signedIn(request), orgId), projectCode, projectClassId);
      if (!found) throw new ApiError(404, API_ERROR.notFound);
      return found;
    },
  );

  app.get<{ Params: ProjectSubscriptionParams; Reply: ProjectClassAnswer }>(
    '/organizations/:orgId/projects/:projectCode/corporate_subscriptions/:requestCode',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'The project and the gls class of a class application of this project (managers: Edit learner registration (class)); 404 when the application is not of a class of this project',
        params: projectSubscriptionParams,
        response: { 200: wire(projectClassAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const { orgId, projectCode, requestCode } = request.params;
      const found = await findProjectSubscription(app.db, await reader(signedIn(request), orgId), projectCode, requestCode);
      if (!found) throw new ApiError(404, API_ERROR.notFound);
      return found;
    },
  );
};
