/**
 * Activation and password reset (SPEC §7 'Account, activation and reset'):
 *
 *   POST admin/account_activation_email     {email, cc?, capy_challengekey, capy_answer}   → 200 {}
 *   GET  admin/validate_confirm_email_token  x-v2-admin-activate-token: Bearer …           → 200 {admin}
 *   PUT  admins/{adminId}                    {first_name, …, password} + activate token    → 200 {admin}
 *   POST admin/reset_password_token_call     {email, capy_challengekey, capy_answer}       → 200 {}
 *   GET  admin/validate_reset_password_token x-v2-admin-reset-password-token: Bearer …     → 200 {admin: {id}}
 *   POST admins/{adminId}/password           {new} + reset token                           → 200 {}
 *
 * Mail requests: 429 too_many_requests past the rate limits (per client address, then per e-mail address; Retry-After),
 * 401 captcha_invalid for a captcha that is missing, wrong, expired or replayed; 409 already_activated for an activated
 * address (activation only); otherwise 200 {}, also for an address that belongs to nobody. The optional `lang` query
 * parameter (ja or en) chooses the mail's language.
 * Token calls: 401 with invalid_token, token_expired, token_used or already_activated (SPEC §4 Tokens).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { emptyAnswerSchema, tokenAdminAnswerSchema, type TokenAdminAnswer } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { API_ERROR, type ApiErrorCode } from '../../common/errorCodes.js';
import type { TokenFailure } from '../domain/adminTokens.js';
import {
  activateAdmin,
  isActivatedAddress,
  requestActivationMail,
  requestPasswordResetMail,
  resetPassword,
  validateActivationToken,
  validatePasswordResetToken,
} from '../domain/accountTokens.js';
import { actingAs } from './audit.js';
import { ApiError } from './errors.js';
import { mailRequestGuard } from './mailGuard.js';
import { SECURITY, TAG } from './openapi.js';
import { adminIdParams, type AdminIdParams, errorAnswers, languageQuery, wire } from './schemas.js';
import { formBody } from './validation.js';

export const ACTIVATE_TOKEN_HEADER = 'x-v2-admin-activate-token';
export const RESET_PASSWORD_TOKEN_HEADER = 'x-v2-admin-reset-password-token';

/** Jobs of the mail queue (mail/queue.ts): a mail request, done after the answer. */
const ACTIVATION_JOB = 'activation';
const PASSWORD_RESET_JOB = 'password_reset';
type ActivationJob = { email: string; cc?: string; requestedLanguage?: string };
type PasswordResetJob = { email: string; requestedLanguage?: string };

interface LangQuery {
  lang?: string;
}

const langQuery = languageQuery("The mail's language (default: the admin's, else ja)");

/** What a mail request may answer besides 200: the captcha refused, too many requests. */
const MAIL_REQUEST_ERRORS = { 401: [API_ERROR.captchaInvalid], 429: [API_ERROR.tooManyRequests] } as const;

const TOKEN_ERRORS = { 401: [API_ERROR.invalidToken, API_ERROR.tokenExpired, API_ERROR.tokenUsed, API_ERROR.alreadyActivated] } as const;
/** A password being set: the token's refusals, and 429 while too many passwords wait for their score (api/passwordStrength.ts). */
const PASSWORD_TOKEN_ERRORS = { ...TOKEN_ERRORS, 429: [API_ERROR.tooManyRequests] } as const;

function bearer(request: FastifyRequest, header: string): string | undefined {
  const value = request.headers[header];
  const raw = Array.isArray(value) ? value[0] : value;
  const match = raw ? /^Bearer\s+(\S+)$/i.exec(raw.trim()) : null;
  return match?.[1];
}

const TOKEN_FAILURE_CODE: Record<TokenFailure, ApiErrorCode> = {
  invalid_token: API_ERROR.invalidToken,
  token_expired: API_ERROR.tokenExpired,
  token_used: API_ERROR.tokenUsed,
  already_activated: API_ERROR.alreadyActivated,
};

function tokenRefused(code: TokenFailure): ApiError {
  return new ApiError(401, TOKEN_FAILURE_CODE[code]);
}

export const adminAccountsRoutes: FastifyPluginAsync = async (app) => {
  const { config, db } = app;
  const guardMailRequest = mailRequestGuard(app);

  // The mail requests answer before any mail work (issue 7 finding 11): the same work for every address, whether it
  // belongs to someone or not; the queue then looks the address up, issues the token and sends the link.
  const mailDeps = { db, mailer: app.mailQueue.transport, notices: app.mailer, publicUrl: config.publicUrl };
  app.mailQueue.handle(ACTIVATION_JOB, async (job: ActivationJob) => {
    const outcome = await requestActivationMail({ ...mailDeps, ttlSeconds: config.activationTokenTtl }, job);
    app.log.info({ outcome }, 'activation mail job done');
  });
  app.mailQueue.handle(PASSWORD_RESET_JOB, async (job: PasswordResetJob) => {
    const outcome = await requestPasswordResetMail({ ...mailDeps, ttlSeconds: config.passwordResetTokenTtl }, job);
    app.log.info({ outcome }, 'password reset mail job done');
  });

  app.post<{ Body: Forms['activation-request']; Querystring: LangQuery }>(
    '/admin/account_activation_email',
    {
      // a mail only: nothing an organisation's trail shows (issue 21)
      config: { audit: [] },
      schema: {
        tags: [TAG.activationAndReset],
        summary: 'Send the activation mail (the same answer for an unknown address, without a mail); a cc address is told it was sent',
        querystring: langQuery,
        body: formBody('activation-request'),
        response: { 200: wire(emptyAnswerSchema), ...errorAnswers({ ...MAIL_REQUEST_ERRORS, 409: [API_ERROR.alreadyActivated] }) },
      },
    },
    async (request, reply) => {
      await guardMailRequest(request, reply, request.body);
      if (await isActivatedAddress(db, request.body.email)) throw new ApiError(409, API_ERROR.alreadyActivated);
      const job: ActivationJob = { email: request.body.email, cc: request.body.cc || undefined, requestedLanguage: request.query.lang };
      await app.mailQueue.enqueue(ACTIVATION_JOB, job);
      request.log.info('activation mail requested');
      return {};
    },
  );

  app.get<{ Reply: TokenAdminAnswer }>(
    '/admin/validate_confirm_email_token',
    {
      schema: {
        tags: [TAG.activationAndReset],
        summary: 'Check an activation link: the admin it activates',
        security: SECURITY.activateToken,
        response: { 200: wire(tokenAdminAnswerSchema), ...errorAnswers(TOKEN_ERRORS) },
      },
    },
    async (request) => {
      const result = await validateActivationToken(db, bearer(request, ACTIVATE_TOKEN_HEADER));
      if (!result.ok) throw tokenRefused(result.code);
      return { admin: result.value };
    },
  );

  app.put<{ Params: AdminIdParams; Body: Forms['admin-activation']; Reply: TokenAdminAnswer }>(
    '/admins/:adminId',
    {
      // the invitee activates the account the invitation made (recorded then: membership.invited); the trail holds no password
      config: { audit: [] },
      schema: {
        tags: [TAG.activationAndReset],
        summary: 'Activate an admin: names and password',
        security: SECURITY.activateToken,
        params: adminIdParams,
        body: formBody('admin-activation'),
        response: { 200: wire(tokenAdminAnswerSchema), ...errorAnswers(PASSWORD_TOKEN_ERRORS) },
      },
    },
    async (request) => {
      const { password, firstName, lastName, kanaFirstName, kanaLastName } = request.body;
      await app.passwordStrength.requireStrong('password', password);
      const result = await activateAdmin(db, {
        adminId: request.params.adminId,
        token: bearer(request, ACTIVATE_TOKEN_HEADER),
        name: { firstName, lastName, kanaFirstName, kanaLastName },
        password,
      });
      if (!result.ok) throw tokenRefused(result.code);
      request.log.info({ adminId: result.value.id }, 'admin activated');
      return { admin: result.value };
    },
  );

  app.post<{ Body: Forms['password-reset-request']; Querystring: LangQuery }>(
    '/admin/reset_password_token_call',
    {
      // a mail only: nothing an organisation's trail shows (issue 21)
      config: { audit: [] },
      schema: {
        tags: [TAG.activationAndReset],
        summary: 'Send the password-reset mail (the same answer for an unknown address, without a mail)',
        querystring: langQuery,
        body: formBody('password-reset-request'),
        response: { 200: wire(emptyAnswerSchema), ...errorAnswers(MAIL_REQUEST_ERRORS) },
      },
    },
    async (request, reply) => {
      await guardMailRequest(request, reply, request.body);
      const job: PasswordResetJob = { email: request.body.email, requestedLanguage: request.query.lang };
      await app.mailQueue.enqueue(PASSWORD_RESET_JOB, job);
      request.log.info('password reset mail requested');
      return {};
    },
  );

  app.get<{ Reply: TokenAdminAnswer }>(
    '/admin/validate_reset_password_token',
    {
      schema: {
        tags: [TAG.activationAndReset],
        summary: 'Check a password-reset link: the id of the admin it belongs to',
        security: SECURITY.resetPasswordToken,
        response: { 200: wire(tokenAdminAnswerSchema), ...errorAnswers(TOKEN_ERRORS) },
      },
    },
    async (request) => {
      const result = await validatePasswordResetToken(db, bearer(request, RESET_PASSWORD_TOKEN_HEADER));
      if (!result.ok) throw tokenRefused(result.code);
      return { admin: result.value };
    },
  );

  app.post<{ Params: AdminIdParams; Body: Forms['password-reset'] }>(
    '/admins/:adminId/password',
    {
      config: { audit: ['account.passwordChanged'] },
      schema: {
        tags: [TAG.activationAndReset],
        summary: "Set a new password through a reset link; ends the admin's sessions",
        security: SECURITY.resetPasswordToken,
        params: adminIdParams,
        body: formBody('password-reset'),
        response: { 200: wire(emptyAnswerSchema), ...errorAnswers(PASSWORD_TOKEN_ERRORS) },
      },
    },
    async (request) => {
      await app.passwordStrength.requireStrong('new', request.body.new);
      const result = await resetPassword(
        db,
        // the link's admin acts (resetPassword refuses a link of another admin)
        { adminId: request.params.adminId, token: bearer(request, RESET_PASSWORD_TOKEN_HEADER), password: request.body.new, trail: actingAs(request, request.params.adminId) },
        // the identity provider's grants (refresh and access tokens) and sessions of the admin
        (adminId) => app.identityProvider.revokeAdmin(adminId),
      );
      if (!result.ok) throw tokenRefused(result.code);
      request.log.info({ adminId: result.value.id }, 'password reset');
      return {};
    },
  );
};
