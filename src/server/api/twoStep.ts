/**
 * The signed-in admin's two-step sign-in (issue 29, the Sign-in security page):
 *
 *   GET    admins/me/two_step              → {passkeys, authenticatorApp, recoveryCodesLeft, twoStepRequired, enrolmentLinkRequired}
 *   POST   admins/me/two_step/enrolment_link → 204: the first factor's set-up link, mailed (under an organisation's rule)
 *   POST   admins/me/authenticator_app     {enrolment?} → 201 {secret, uri, qrCode}: a set-up to verify (403 while an app is on)
 *   PUT    admins/me/authenticator_app     {code} → {recoveryCodes, session}: verified, on; the first factor brings ten codes
 *   DELETE admins/me/authenticator_app     → {session} (404 when none is on)
 *   POST   admins/me/recovery_codes        → {recoveryCodes}: ten new ones in place of the old
 *   POST   admins/me/passkeys/registration_options {enrolment?} → {options}: WebAuthn creation options (JSON text)
 *   POST   admins/me/passkeys              {name, credential} → 201 {passkey, recoveryCodes, session}: the browser's new
 *                                           credential (JSON text), verified; 422 credential invalid
 *   PATCH  admins/me/passkeys/{id}         {name} → 204;  DELETE admins/me/passkeys/{id} → {session} (404 when not theirs)
 *
 * Only the admin changes their own factors, from a recent sign-in (403 reauthentication_expired otherwise): a recent
 * password entry while the account has no factor, and once it has one a recent second step as well (issue 44 finding
 * 1, NIST SP 800-63B §6.1.2: binding an authenticator needs the existing one); a stolen password-only session cannot
 * switch them. Under an organisation's rule the first factor also needs the link mailed to the admin (finding 3).
 * Adding or removing a factor ends the admin's other sessions and answers the caller's new one (findings 1 and 8).
 * The changes are the admin's account events in the audit trail; the admin is mailed of each.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  authenticatorSetupAnswerSchema,
  factorAddedAnswerSchema,
  factorRemovedAnswerSchema,
  passkeyAddedAnswerSchema,
  passkeyOptionsAnswerSchema,
  recoveryCodesAnswerSchema,
  twoStepAnswerSchema,
  type FactorAddedAnswer,
  type FactorRemovedAnswer,
  type PasskeyAddedAnswer,
  type RecoveryCodesAnswer,
} from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { API_ERROR, FIELD_ERROR } from '../../common/errorCodes.js';
import { findAdminById } from '../domain/admins.js';
import { addPasskey, credentialOf, registrationOptions, removePasskey, renamePasskey } from '../domain/passkeys.js';
import { hitRateLimit } from '../domain/rateLimits.js';
import { ENROLMENT_LINK_JOB, mailEnrolmentLink, tellOfSecurityEvent, type EnrolmentLinkJob, type SecurityEvent } from '../domain/securityMails.js';
import {
  boundByTwoStepRule,
  confirmAuthenticatorApp,
  hasSecondFactor,
  isEnrolmentToken,
  recoveryCodesForFirstFactor,
  removeAuthenticatorApp,
  replaceRecoveryCodes,
  startAuthenticatorApp,
  twoStepState,
} from '../domain/twoStep.js';
import { auditOf } from './audit.js';
import { isReauthenticationExpired, isSecondStepExpired, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, wire } from './schemas.js';
import { replaceSession, sessionAffiliation, signInOf } from './sessionReplacement.js';
import { FormValidationError, formBody } from './validation.js';

const CHANGE_ERRORS = errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired] });
const START_ERRORS = errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired, API_ERROR.enrolmentLinkRequired] });

/** A set-up's start: the mailed enrolment link's token, when the rule asks for one. */
const enrolmentBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { enrolment: { type: ['string', 'null'], maxLength: 200, description: 'the token of the mailed enrolment link (`enrolment` in its query)' } },
} as const;

const passkeyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'credential'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    credential: { type: 'string', minLength: 2, maxLength: 16384, description: "the browser's RegistrationResponseJSON, as text" },
  },
} as const;
const passkeyParams = { type: 'object', additionalProperties: false, properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } }, required: ['id'] } as const;

export const twoStepRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { config, db } = app;
  const keys = { db, configuredKeys: config.secretKeys };
  const relyingParty = { db, publicUrl: config.publicUrl };
  const mailDeps = { db, mailer: app.mailer, publicUrl: config.publicUrl };
  const epochNow = () => Math.floor(Date.now() / 1000);
  // the link's token is made as the mail leaves: it never waits in the queue in clear
  app.mailQueue.handle(ENROLMENT_LINK_JOB, (job: EnrolmentLinkJob) => mailEnrolmentLink({ ...mailDeps, mailer: app.mailQueue.transport }, job, config.twoStepEnrolmentTtl));

  /**
   * The signed-in admin, changing their factors: a recent password entry, and a recent second step once the account
   * has a factor; an account that is still there.
   */
  async function changingAdmin(request: FastifyRequest) {
    const admin = signedIn(request);
    const account = await findAdminById(db, admin.id);
    if (!account) throw new ApiError(403, API_ERROR.forbidden);
    const hadFactor = await hasSecondFactor(db, admin.id);
    if (hadFactor ? isSecondStepExpired(admin, config.reauthWindow) : isReauthenticationExpired(admin, config.reauthWindow)) {
      throw new ApiError(403, API_ERROR.reauthenticationExpired);
    }
    return { id: account.id, email: account.email, signedIn: admin, hadFactor };
  }
  type ChangingAdmin = Awaited<ReturnType<typeof changingAdmin>>;

  /** Starting a first factor under an organisation's rule takes the mailed link's token too (403 enrolment_link_required). */
  async function requireEnrolment(admin: ChangingAdmin, token: string | undefined): Promise<void> {
    if (admin.hadFactor || !(await boundByTwoStepRule(db, admin.id))) return;
    if (!(await isEnrolmentToken(db, admin.id, token))) throw new ApiError(403, API_ERROR.enrolmentLinkRequired);
  }

  /** A factor added: the admin's other sessions end; the caller's goes on with the factor just proven (fresh). */
  async function sessionWithFactor(admin: ChangingAdmin, method: 'otp' | 'hwk') {
    const before = signInOf(admin.signedIn);
    const amr = [...new Set([...before.amr, method, 'mfa'])];
    return replaceSession(app, admin.id, await sessionAffiliation(app, admin.signedIn), { ...before, amr, secondStepAt: epochNow() });
  }

  /** A factor removed: the other sessions end; without a factor left the caller's session is a password-only one. */
  async function sessionAfterRemoval(admin: ChangingAdmin) {
    const before = signInOf(admin.signedIn);
    const signIn = (await hasSecondFactor(db, admin.id)) ? before : { authTime: before.authTime, amr: ['pwd'] };
    return replaceSession(app, admin.id, await sessionAffiliation(app, admin.signedIn), signIn);
  }

  const mail = (request: FastifyRequest, adminId: number, event: SecurityEvent) => tellOfSecurityEvent(mailDeps, request.log, adminId, event);

  app.get('/admins/me/two_step', { schema: { tags: [TAG.account], summary: "The signed-in admin's second factors", response: { 200: wire(twoStepAnswerSchema) } } }, async (request) => {
    const { id } = signedIn(request);
    const [state, twoStepRequired] = await Promise.all([twoStepState(db, id), boundByTwoStepRule(db, id)]);
    const anyFactor = state.authenticatorApp || state.passkeys.length > 0;
    return { ...state, twoStepRequired, enrolmentLinkRequired: twoStepRequired && !anyFactor };
  });

  app.post(
    '/admins/me/two_step/enrolment_link',
    {
      // a link mailed opens no factor: the factor set up with it is the trail's entry
      config: { audit: [] },
      schema: {
        tags: [TAG.account],
        summary: "Mail the admin the link that opens a first factor's set-up (an admin bound by an organisation's two-step rule; TWO_STEP_ENROLMENT_TTL)",
        response: { 204: { type: 'null', description: 'Mailed' }, ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired], 429: [API_ERROR.tooManyRequests] }) },
      },
    },
    async (request, reply) => {
      const admin = await changingAdmin(request);
      // only an admin the rule binds, without a factor yet, needs one (with a factor, changes need its second step)
      if (admin.hadFactor || !(await boundByTwoStepRule(db, admin.id))) throw new ApiError(403, API_ERROR.forbidden, 'no enrolment link is needed');
      const limit = await hitRateLimit(db, `mail:email:${admin.email}`, { windowSeconds: config.mailRateLimit.windowSeconds, limit: config.mailRateLimit.perEmail });
      if (!limit.allowed) {
        reply.header('retry-after', String(limit.retryAfterSeconds));
        throw new ApiError(429, API_ERROR.tooManyRequests);
      }
      const job: EnrolmentLinkJob = { adminId: admin.id };
      await app.mailQueue.enqueue(ENROLMENT_LINK_JOB, job);
      return reply.code(204).send();
    },
  );

  app.post<{ Body: { enrolment?: string | null } | null }>(
    '/admins/me/authenticator_app',
    {
      // a set-up in progress is no factor yet: its verification is the trail's entry
      config: { audit: [] },
      schema: {
        tags: [TAG.account],
        summary: 'Start setting up an authenticator app: a new secret and its QR code, on once a code of it is verified (PUT); 403 while an app is on',
        body: enrolmentBody,
        response: { 201: wire(authenticatorSetupAnswerSchema), ...START_ERRORS },
      },
    },
    async (request, reply) => {
      const admin = await changingAdmin(request);
      await requireEnrolment(admin, request.body?.enrolment ?? undefined);
      const setup = await startAuthenticatorApp(keys, admin);
      if (setup === 'already_on') throw new ApiError(403, API_ERROR.forbidden, 'an authenticator app is on');
      return reply.code(201).send(setup);
    },
  );

  app.put<{ Body: Forms['authenticator-code']; Reply: FactorAddedAnswer }>(
    '/admins/me/authenticator_app',
    {
      config: { audit: ['account.twoStepAdded', 'account.recoveryCodesGenerated'] },
      schema: {
        tags: [TAG.account],
        summary: "Verify the app being set up with a code of it: it is on; the first factor comes with ten recovery codes (shown once); the admin's other sessions end; 422 code invalid",
        body: formBody('authenticator-code'),
        response: { 200: wire(factorAddedAnswerSchema), ...CHANGE_ERRORS },
      },
    },
    async (request) => {
      const admin = await changingAdmin(request);
      const result = await confirmAuthenticatorApp(keys, admin, request.body.code, auditOf(request));
      if (!result.ok) throw new FormValidationError([{ field: 'code', code: result.reason === 'no_setup' ? FIELD_ERROR.notFound : FIELD_ERROR.invalid, meta: {} }]);
      await mail(request, admin.id, { kind: 'twoStepAdded', factor: 'authenticatorApp' });
      return { recoveryCodes: result.recoveryCodes ?? [], session: await sessionWithFactor(admin, 'otp') };
    },
  );

  app.delete<{ Reply: FactorRemovedAnswer }>(
    '/admins/me/authenticator_app',
    {
      config: { audit: ['account.twoStepRemoved'] },
      schema: {
        tags: [TAG.account],
        summary: "Turn the authenticator app off; the admin's other sessions end",
        response: { 200: wire(factorRemovedAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const admin = await changingAdmin(request);
      if (!(await removeAuthenticatorApp(db, admin, auditOf(request)))) throw new ApiError(404, API_ERROR.notFound);
      await mail(request, admin.id, { kind: 'twoStepRemoved', factor: 'authenticatorApp' });
      return { session: await sessionAfterRemoval(admin) };
    },
  );

  app.post<{ Body: { enrolment?: string | null } | null }>(
    '/admins/me/passkeys/registration_options',
    {
      // a ceremony begun is no factor yet: the passkey kept is the trail's entry
      config: { audit: [] },
      schema: {
        tags: [TAG.account],
        summary: 'Begin adding a passkey: WebAuthn creation options (discoverable, user verification required)',
        body: enrolmentBody,
        response: { 200: wire(passkeyOptionsAnswerSchema), ...START_ERRORS },
      },
    },
    async (request) => {
      const admin = await changingAdmin(request);
      await requireEnrolment(admin, request.body?.enrolment ?? undefined);
      return { options: JSON.stringify(await registrationOptions(relyingParty, admin)) };
    },
  );

  app.post<{ Body: { name: string; credential: string }; Reply: PasskeyAddedAnswer }>(
    '/admins/me/passkeys',
    {
      config: { audit: ['account.twoStepAdded', 'account.recoveryCodesGenerated'] },
      schema: {
        tags: [TAG.account],
        summary: "Keep the browser's new passkey (verified against the ceremony begun); the first factor comes with ten recovery codes; the admin's other sessions end; 422 credential invalid",
        body: passkeyBody,
        response: { 201: wire(passkeyAddedAnswerSchema), ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => {
      const admin = await changingAdmin(request);
      const credential = credentialOf(request.body.credential);
      const passkey = credential && (await addPasskey(relyingParty, admin, { name: request.body.name.trim(), response: credential as never }, auditOf(request)));
      if (!passkey) throw new FormValidationError([{ field: 'credential', code: FIELD_ERROR.invalid, meta: {} }]);
      const recoveryCodes = await db.transaction().execute((trx) => recoveryCodesForFirstFactor({ ...keys, db: trx }, admin, auditOf(request)));
      await mail(request, admin.id, { kind: 'twoStepAdded', factor: 'passkey' });
      return reply.code(201).send({ passkey, recoveryCodes: recoveryCodes ?? [], session: await sessionWithFactor(admin, 'hwk') });
    },
  );

  app.patch<{ Params: { id: number }; Body: Forms['passkey-name'] }>(
    '/admins/me/passkeys/:id',
    {
      config: { audit: [] },
      schema: {
        tags: [TAG.account],
        summary: 'Rename a passkey',
        params: passkeyParams,
        body: formBody('passkey-name'),
        response: { 204: { type: 'null', description: 'Renamed' }, ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request, reply) => {
      const admin = await changingAdmin(request);
      if (!(await renamePasskey(db, admin.id, request.params.id, request.body.name.trim()))) throw new ApiError(404, API_ERROR.notFound);
      return reply.code(204).send();
    },
  );

  app.delete<{ Params: { id: number }; Reply: FactorRemovedAnswer }>(
    '/admins/me/passkeys/:id',
    {
      config: { audit: ['account.twoStepRemoved'] },
      schema: {
        tags: [TAG.account],
        summary: "Remove a passkey; the admin's other sessions end",
        params: passkeyParams,
        response: { 200: wire(factorRemovedAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request) => {
      const admin = await changingAdmin(request);
      if (!(await removePasskey(db, admin, request.params.id, auditOf(request)))) throw new ApiError(404, API_ERROR.notFound);
      await mail(request, admin.id, { kind: 'twoStepRemoved', factor: 'passkey' });
      return { session: await sessionAfterRemoval(admin) };
    },
  );

  app.post<{ Reply: RecoveryCodesAnswer }>(
    '/admins/me/recovery_codes',
    {
      config: { audit: ['account.recoveryCodesGenerated'] },
      schema: {
        tags: [TAG.account],
        summary: 'Ten new recovery codes in place of the old ones (shown once)',
        response: { 200: wire(recoveryCodesAnswerSchema), ...CHANGE_ERRORS },
      },
    },
    async (request) => {
      const admin = await changingAdmin(request);
      // codes stand in for a factor: only an account with one has them to replace (a factor's second step, above)
      if (!admin.hadFactor) throw new ApiError(403, API_ERROR.forbidden, 'no second factor');
      const recoveryCodes = await db.transaction().execute((trx) => replaceRecoveryCodes({ ...keys, db: trx }, admin, auditOf(request)));
      await mail(request, admin.id, { kind: 'recoveryCodesGenerated' });
      return { recoveryCodes };
    },
  );
};
