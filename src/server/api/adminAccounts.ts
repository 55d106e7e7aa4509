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
  type AdminName,
} from '../domain/accountTokens.js';
import { ApiError } from './errors.js';
import { mailRequestGuard } from './mailGuard.js';
import { requireStrongPassword } from './passwordStrength.js';
import { adminIdParams, commonResponses, errorResponse, languageQuery, validationErrorResponse } from './schemas.js';
import { formBody } from './validation.js';

export const ACTIVATE_TOKEN_HEADER = 'x-v2-admin-activate-token';
export const RESET_PASSWORD_TOKEN_HEADER = 'x-v2-admin-reset-password-token';

interface CaptchaFields {
  capyChallengekey?: string;
  capyAnswer?: string;
}

interface ActivationMailBody extends CaptchaFields {
  email: string;
  cc?: string;
}

interface ResetMailBody extends CaptchaFields {
  email: string;
}

type ActivationBody = AdminName & { password: string };

interface PasswordResetBody {
  new: string;
}

/** Jobs of the mail queue (mail/queue.ts): a mail request, done after the answer. */
const ACTIVATION_JOB = 'activation';
const PASSWORD_RESET_JOB = 'password_reset';
type ActivationJob = { email: string; cc?: string; requestedLanguage?: string };
type PasswordResetJob = { email: string; requestedLanguage?: string };

interface LangQuery {
  lang?: string;
}

const langQuery = languageQuery("The mail's language (default: the admin's, else ja)");

const emptyResponse = { type: 'object', properties: {}, additionalProperties: false } as const;

const tokenAdminSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    email: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    kana_first_name: { type: 'string' },
    kana_last_name: { type: 'string' },
  },
  required: ['id'],
} as const;

const adminResponse = { type: 'object', properties: { admin: tokenAdminSchema }, required: ['admin'] } as const;

const mailRequestResponses = {
  200: emptyResponse,
  401: errorResponse,
  422: validationErrorResponse,
  429: errorResponse,
  ...commonResponses,
} as const;

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

  app.post<{ Body: ActivationMailBody; Querystring: LangQuery }>(
    '/admin/account_activation_email',
    {
      schema: {
        tags: ['activation'],
        summary: 'Send the activation mail (the same answer for an unknown address, without a mail)',
        querystring: langQuery,
        body: formBody('activation-request'),
        response: { ...mailRequestResponses, 409: errorResponse },
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

  app.get(
    '/admin/validate_confirm_email_token',
    {
      schema: {
        tags: ['activation'],
        summary: 'Check an activation link (header x-v2-admin-activate-token: Bearer {token})',
        response: { 200: adminResponse, 401: errorResponse, ...commonResponses },
      },
    },
    async (request) => {
      const result = await validateActivationToken(db, bearer(request, ACTIVATE_TOKEN_HEADER));
      if (!result.ok) throw tokenRefused(result.code);
      return { admin: result.value };
    },
  );

  app.put<{ Params: { adminId: number }; Body: ActivationBody }>(
    '/admins/:adminId',
    {
      schema: {
        tags: ['activation'],
        summary: 'Activate an admin: names and password (header x-v2-admin-activate-token: Bearer {token})',
        params: adminIdParams,
        body: formBody('admin-activation'),
        response: { 200: adminResponse, 401: errorResponse, 422: validationErrorResponse, ...commonResponses },
      },
    },
    async (request) => {
      const { password, firstName, lastName, kanaFirstName, kanaLastName } = request.body;
      requireStrongPassword('password', password);
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

  app.post<{ Body: ResetMailBody; Querystring: LangQuery }>(
    '/admin/reset_password_token_call',
    {
      schema: {
        tags: ['password reset'],
        summary: 'Send the password-reset mail (the same answer for an unknown address, without a mail)',
        querystring: langQuery,
        body: formBody('password-reset-request'),
        response: mailRequestResponses,
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

  app.get(
    '/admin/validate_reset_password_token',
    {
      schema: {
        tags: ['password reset'],
        summary: 'Check a password-reset link (header x-v2-admin-reset-password-token: Bearer {token})',
        response: { 200: adminResponse, 401: errorResponse, ...commonResponses },
      },
    },
    async (request) => {
      const result = await validatePasswordResetToken(db, bearer(request, RESET_PASSWORD_TOKEN_HEADER));
      if (!result.ok) throw tokenRefused(result.code);
      return { admin: result.value };
    },
  );

  app.post<{ Params: { adminId: number }; Body: PasswordResetBody }>(
    '/admins/:adminId/password',
    {
      schema: {
        tags: ['password reset'],
        summary: "Set a new password through a reset link; ends the admin's sessions (header x-v2-admin-reset-password-token)",
        params: adminIdParams,
        body: formBody('password-reset'),
        response: { 200: emptyResponse, 401: errorResponse, 422: validationErrorResponse, ...commonResponses },
      },
    },
    async (request) => {
      requireStrongPassword('new', request.body.new);
      const result = await resetPassword(
        db,
        { adminId: request.params.adminId, token: bearer(request, RESET_PASSWORD_TOKEN_HEADER), password: request.body.new },
        // the identity provider's grants (refresh and access tokens) and sessions of the admin
        (adminId) => app.identityProvider.revokeAdmin(adminId),
      );
      if (!result.ok) throw tokenRefused(result.code);
      request.log.info({ adminId: result.value.id }, 'password reset');
      return {};
    },
  );
};
