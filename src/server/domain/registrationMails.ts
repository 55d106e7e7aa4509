/**
 * The mails of a registration request (issue 4 §7): a notification to the provider's staff (REGISTRATION_NOTIFY_TO,
 * in Japanese) and a confirmation to the applicant (in the language of the request). The staff's summary lists every
 * field of the form in the form's order, labelled with the form's own field titles (locales/<lang>/registration.json);
 * the applicant's confirmation carries none of the entered text (it would make the form a mail relay).
 */
import type { Language } from '../../common/languages.js';
import type { RegistrationRequest } from '../db/types.js';
import type { Mailer } from '../mail/mailer.js';
import { localeText, renderMail } from '../mail/templates.js';

export interface RegistrationMailDeps {
  mailer: Mailer;
  /** Staff addresses; none: no notification. */
  notifyTo: readonly string[];
  /** The fields of the form in order, with the locale keys of their titles and of their options' labels. */
  fields: readonly { name: string; title: string; options?: Readonly<Record<string, string>> }[];
}

const STAFF_LANGUAGE: Language = 'ja';

export function registrationSummary(request: RegistrationRequest, fields: RegistrationMailDeps['fields'], language: Language): string {
  const notEntered = localeText(language, 'common.notEntered');
  return fields
    .map(({ name, title, options }) => {
      const raw = (request as unknown as Record<string, unknown>)[name];
      const option = options?.[String(raw)];
      const value = raw === null || raw === undefined || raw === '' ? notEntered : option ? localeText(language, option) : String(raw);
      return `${localeText(language, title)}: ${value}`;
    })
    .join('\n');
}

function receivedAt(request: RegistrationRequest): string {
  return new Date(request.createdAt).toISOString();
}

/** Sends both mails; a failing one does not stop the other. Resolves with the errors (for the log). */
export async function sendRegistrationMails(deps: RegistrationMailDeps, request: RegistrationRequest, applicantLanguage: Language): Promise<Error[]> {
  const errors: Error[] = [];
  const attempt = async (send: () => Promise<void>) => {
    try {
      await send();
    } catch (error) {
      errors.push(error as Error);
    }
  };
  if (deps.notifyTo.length > 0) {
    await attempt(() =>
      deps.mailer.send({
        ...renderMail('registrationNotification', STAFF_LANGUAGE, {
          id: String(request.id),
          receivedAt: receivedAt(request),
          corporationName: request.corporationName,
          summary: registrationSummary(request, deps.fields, STAFF_LANGUAGE),
        }),
        to: [...deps.notifyTo],
      }),
    );
  }
  await attempt(() =>
    deps.mailer.send({
      // anyone can enter any address: nothing the applicant typed goes back out (issue 7 finding 8), only our reference
      ...renderMail('registrationReceived', applicantLanguage, { id: String(request.id) }),
      to: request.email,
    }),
  );
  return errors;
}
