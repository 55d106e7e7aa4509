/**
 * An organisation's sign-in rule (issue 29), beside its admin list:
 *
 *   GET organizations/{orgId}/sign_in_rule                          → {twoStepRequired, etag}   (its admins)
 *   PUT organizations/{orgId}/sign_in_rule   {two_step_required}    → {twoStepRequired, etag}   (a manager)
 *
 * While the rule is on, the API refuses the organisation's calls made with a token of a password-only sign-in
 * (403 mfa_required, api/auth.ts): an admin without a second factor sets one up on Sign-in security (their own account's
 * calls stay open) and signs in again. A manager turns it on only from a two-step session of their own, so that the
 * rule never locks out the manager who sets it.
 *
 * The rule is versioned like the organisation's other records (issue 44; api/preconditions.ts): GET answers its ETag,
 * and a PUT with If-Match changes it only on that version (else 412, who changed it and when; 428 without If-Match
 * under IF_MATCH_REQUIRED).
 */
import type { FastifyPluginAsync } from 'fastify';
import { signInRuleAnswerSchema, type SignInRuleAnswer } from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { mailTwoStepRuleChange } from '../domain/securityMails.js';
import { changeSignInRule, signInRule } from '../domain/signInRule.js';
import { auditOf } from './audit.js';
import { requireAffiliation, requireManager, signedIn, signedInInTwoSteps, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { changedMeanwhileAs412, conditionalWrite, etagHeader, preconditionOf, sendEtag } from './preconditions.js';
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
  const { db, config } = app;

  app.get<{ Params: OrganizationParams; Reply: SignInRuleAnswer }>(
    '/organizations/:orgId/sign_in_rule',
    {
      schema: {
        tags: [TAG.organisationAdmins],
        summary: "The organisation's sign-in rule (its admins), its version in ETag",
        params: organizationParams,
        response: { 200: { ...wire(signInRuleAnswerSchema), headers: etagHeader }, ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request, reply) => {
      await requireAffiliation(db, signedIn(request), request.params.orgId);
      const rule = await signInRule(db, request.params.orgId);
      sendEtag(reply, rule.etag);
      return rule;
    },
  );

  app.put<{ Params: OrganizationParams; Body: { twoStepRequired: boolean }; Reply: SignInRuleAnswer }>(
    '/organizations/:orgId/sign_in_rule',
    {
      config: { audit: ['organization.twoStepRuleChanged'] },
      schema: {
        tags: [TAG.organisationAdmins],
        summary: 'Require two-step sign-in of every admin of the organisation, or stop (a manager; turning it on needs a two-step session: else 403 mfa_required); with If-Match, only on the version named',
        params: organizationParams,
        headers: conditionalWrite.headers,
        body: ruleBody,
        response: { 200: { ...wire(signInRuleAnswerSchema), headers: etagHeader }, ...errorAnswers({ 403: [API_ERROR.forbidden] }), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const { orgId } = request.params;
      await requireManager(db, admin, orgId);
      const { twoStepRequired } = request.body;
      if (twoStepRequired && !signedInInTwoSteps(admin)) throw new ApiError(403, API_ERROR.mfaRequired, 'sign in in two steps before requiring it');
      const precondition = preconditionOf(request, config.ifMatchRequired);
      const { rule, changed } = await changedMeanwhileAs412(db, request, orgId, changeSignInRule(db, orgId, twoStepRequired, precondition, auditOf(request, orgId)));
      if (changed) {
        request.log.info({ organizationId: orgId, twoStepRequired }, 'sign-in rule changed');
        // every admin of the organisation is told (issue 44 finding 9); queued, never fails the answer
        await mailTwoStepRuleChange({ db, mailer: app.mailer, publicUrl: config.publicUrl }, orgId, twoStepRequired).catch((error: unknown) =>
          request.log.error({ err: error }, 'the mails of a sign-in rule change could not be queued'),
        );
      }
      sendEtag(reply, rule.etag);
      return rule;
    },
  );
};
