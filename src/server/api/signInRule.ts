/**
 * An organisation's sign-in rule (issue 29), beside its admin list:
 *
 *   GET organizations/{orgId}/sign_in_rule                          → {twoStepRequired}   (its admins)
 *   PUT organizations/{orgId}/sign_in_rule   {two_step_required}    → {twoStepRequired}   (a manager)
 *
 * While the rule is on, the API refuses the organisation's calls made with a token of a password-only sign-in
 * (403 mfa_required, api/auth.ts): an admin without a second factor sets one up on Sign-in security (their own account's
 * calls stay open) and signs in again. A manager turns it on only from a two-step session of their own, so that the
 * rule never locks out the manager who sets it.
 */
import type { FastifyPluginAsync } from 'fastify';
import { signInRuleAnswerSchema, type SignInRuleAnswer } from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { setTwoStepRule, twoStepRule } from '../domain/twoStep.js';
import { auditOf } from './audit.js';
import { requireAffiliation, requireManager, signedIn, signedInInTwoSteps, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, organizationParams, wire, type OrganizationParams } from './schemas.js';

const ruleBody = {
  type: 'object',
  additionalProperties: false,
  required: ['twoStepRequired'],
  properties: { twoStepRequired: { type: 'boolean', description: 'every admin acting for the organisation signs in in two steps' } },
} as const;

export const signInRuleRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { db } = app;

  app.get<{ Params: OrganizationParams; Reply: SignInRuleAnswer }>(
    '/organizations/:orgId/sign_in_rule',
    {
      schema: {
        tags: [TAG.organisationAdmins],
        summary: "The organisation's sign-in rule (its admins)",
        params: organizationParams,
        response: { 200: wire(signInRuleAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      await requireAffiliation(db, signedIn(request), request.params.orgId);
      return { twoStepRequired: await twoStepRule(db, request.params.orgId) };
    },
  );

  app.put<{ Params: OrganizationParams; Body: { twoStepRequired: boolean }; Reply: SignInRuleAnswer }>(
    '/organizations/:orgId/sign_in_rule',
    {
      config: { audit: ['organization.twoStepRuleChanged'] },
      schema: {
        tags: [TAG.organisationAdmins],
        summary: 'Require two-step sign-in of every admin of the organisation, or stop (a manager; turning it on needs a two-step session: else 403 mfa_required)',
        params: organizationParams,
        body: ruleBody,
        response: { 200: wire(signInRuleAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const { orgId } = request.params;
      await requireManager(db, admin, orgId);
      const { twoStepRequired } = request.body;
      if (twoStepRequired && !signedInInTwoSteps(admin)) throw new ApiError(403, API_ERROR.mfaRequired, 'sign in in two steps before requiring it');
      await setTwoStepRule(db, orgId, twoStepRequired, auditOf(request, orgId));
      request.log.info({ organizationId: orgId, twoStepRequired }, 'sign-in rule changed');
      return { twoStepRequired };
    },
  );
};
