/**
 * The signed-in admin's two-step sign-in (issue 29, the Sign-in security page):
 *
 *   GET    admins/me/two_step              → {authenticatorApp, recoveryCodesLeft}
 *   POST   admins/me/authenticator_app     → 201 {secret, uri, qrCode}: a set-up to verify (403 while an app is on)
 *   PUT    admins/me/authenticator_app     {code} → {recoveryCodes}: verified, on; the first factor brings ten codes
 *   DELETE admins/me/authenticator_app     → 204 (404 when none is on)
 *   POST   admins/me/recovery_codes        → {recoveryCodes}: ten new ones in place of the old
 *   POST   admins/me/passkeys/registration_options → {options}: WebAuthn creation options (JSON text)
 *   POST   admins/me/passkeys              {name, credential} → 201 {passkey, recoveryCodes}: the browser's new
 *                                           credential (JSON text), verified; 422 credential invalid
 *   PATCH  admins/me/passkeys/{id}         {name} → 204;  DELETE admins/me/passkeys/{id} → 204 (404 when not theirs)
 *
 * Only the admin changes their own factors, and only after a recent password entry (the account pages' guard;
 * 403 reauthentication_expired otherwise): a stolen session alone cannot switch them. The changes are the admin's
 * account events in the audit trail; the admin is mailed when a factor is added or removed.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  authenticatorSetupAnswerSchema,
  passkeyAddedAnswerSchema,
  passkeyOptionsAnswerSchema,
  recoveryCodesAnswerSchema,
  twoStepAnswerSchema,
  type PasskeyAddedAnswer,
  type RecoveryCodesAnswer,
} from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { API_ERROR, FIELD_ERROR } from '../../common/errorCodes.js';
import { findAdminById } from '../domain/admins.js';
import { mailTwoStepChange } from '../domain/twoStepMails.js';
import { addPasskey, credentialOf, registrationOptions, removePasskey, renamePasskey } from '../domain/passkeys.js';
import { confirmAuthenticatorApp, recoveryCodesForFirstFactor, removeAuthenticatorApp, replaceRecoveryCodes, startAuthenticatorApp, twoStepState } from '../domain/twoStep.js';
import { auditOf } from './audit.js';
import { requireRecentAuthentication, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, wire } from './schemas.js';
import { FormValidationError, formBody } from './validation.js';

const CHANGE_ERRORS = errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired] });

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
  const keys = { db, configuredKey: config.twoStepSecretKey };
  const relyingParty = { db, publicUrl: config.publicUrl };

  /** The signed-in admin, changing their factors: a recent password entry, an account that is still there. */
  async function changingAdmin(request: FastifyRequest) {
    const admin = signedIn(request);
    requireRecentAuthentication(admin, config.reauthWindow);
    const account = await findAdminById(db, admin.id);
    if (!account) throw new ApiError(403, API_ERROR.forbidden);
    return { id: account.id, email: account.email };
  }

  /** Tells the admin by mail; queued, never fails the answer. */
  const mail = (request: FastifyRequest, adminId: number, change: Parameters<typeof mailTwoStepChange>[2]) =>
    mailTwoStepChange({ db, mailer: app.mailer, publicUrl: config.publicUrl }, adminId, change).catch((error: unknown) =>
      request.log.error({ err: error }, 'the mail of a two-step sign-in change could not be queued'),
    );

  app.get('/admins/me/two_step', { schema: { tags: [TAG.account], summary: "The signed-in admin's second factors", response: { 200: wire(twoStepAnswerSchema) } } }, async (request) =>
    twoStepState(db, signedIn(request).id),
  );

  app.post(
    '/admins/me/authenticator_app',
    {
      // a set-up in progress is no factor yet: its verification is the trail's entry
      config: { audit: [] },
      schema: {
        tags: [TAG.account],
        summary: 'Start setting up an authenticator app: a new secret and its QR code, on once a code of it is verified (PUT); 403 while an app is on',
        response: { 201: wire(authenticatorSetupAnswerSchema), ...CHANGE_ERRORS },
      },
    },
    async (request, reply) => {
      const setup = await startAuthenticatorApp(keys, await changingAdmin(request));
      if (setup === 'already_on') throw new ApiError(403, API_ERROR.forbidden, 'an authenticator app is on');
      return reply.code(201).send(setup);
    },
  );

  app.put<{ Body: Forms['authenticator-code']; Reply: RecoveryCodesAnswer }>(
    '/admins/me/authenticator_app',
    {
      config: { audit: ['account.twoStepAdded', 'account.recoveryCodesGenerated'] },
      schema: {
        tags: [TAG.account],
        summary: 'Verify the app being set up with a code of it: it is on; the first factor comes with ten recovery codes (shown once); 422 code invalid',
        body: formBody('authenticator-code'),
        response: { 200: wire(recoveryCodesAnswerSchema), ...CHANGE_ERRORS },
      },
    },
    async (request) => {
      const admin = await changingAdmin(request);
      const result = await confirmAuthenticatorApp(keys, admin, request.body.code, auditOf(request));
      if (!result.ok) throw new FormValidationError([{ field: 'code', code: result.reason === 'no_setup' ? FIELD_ERROR.notFound : FIELD_ERROR.invalid, meta: {} }]);
      await mail(request, admin.id, { kind: 'added', factor: 'authenticatorApp' });
      return { recoveryCodes: result.recoveryCodes ?? [] };
    },
  );

  app.delete(
    '/admins/me/authenticator_app',
    {
      config: { audit: ['account.twoStepRemoved'] },
      schema: {
        tags: [TAG.account],
        summary: 'Turn the authenticator app off',
        response: { 204: { type: 'null', description: 'Off' }, ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request, reply) => {
      const admin = await changingAdmin(request);
      if (!(await removeAuthenticatorApp(db, admin, auditOf(request)))) throw new ApiError(404, API_ERROR.notFound);
      await mail(request, admin.id, { kind: 'removed', factor: 'authenticatorApp' });
      return reply.code(204).send();
    },
  );

  app.post(
    '/admins/me/passkeys/registration_options',
    {
      // a ceremony begun is no factor yet: the passkey kept is the trail's entry
      config: { audit: [] },
      schema: { tags: [TAG.account], summary: 'Begin adding a passkey: WebAuthn creation options (discoverable, user verification required)', response: { 200: wire(passkeyOptionsAnswerSchema), ...CHANGE_ERRORS } },
    },
    async (request) => ({ options: JSON.stringify(await registrationOptions(relyingParty, await changingAdmin(request))) }),
  );

  app.post<{ Body: { name: string; credential: string }; Reply: PasskeyAddedAnswer }>(
    '/admins/me/passkeys',
    {
      config: { audit: ['account.twoStepAdded', 'account.recoveryCodesGenerated'] },
      schema: {
        tags: [TAG.account],
        summary: "Keep the browser's new passkey (verified against the ceremony begun); the first factor comes with ten recovery codes; 422 credential invalid",
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
      await mail(request, admin.id, { kind: 'added', factor: 'passkey' });
      return reply.code(201).send({ passkey, recoveryCodes: recoveryCodes ?? [] });
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

  app.delete<{ Params: { id: number } }>(
    '/admins/me/passkeys/:id',
    {
      config: { audit: ['account.twoStepRemoved'] },
      schema: {
        tags: [TAG.account],
        summary: 'Remove a passkey',
        params: passkeyParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired], 404: [API_ERROR.notFound] }) },
      },
    },
    async (request, reply) => {
      const admin = await changingAdmin(request);
      if (!(await removePasskey(db, admin, request.params.id, auditOf(request)))) throw new ApiError(404, API_ERROR.notFound);
      await mail(request, admin.id, { kind: 'removed', factor: 'passkey' });
      return reply.code(204).send();
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
      return { recoveryCodes: await db.transaction().execute((trx) => replaceRecoveryCodes({ ...keys, db: trx }, admin, auditOf(request))) };
    },
  );
};
