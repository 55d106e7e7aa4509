/** The demo outbox (`/dev/mails.json`, newest first): the mails the portal sent, as the e2e tests read them. */
export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** The newest mail that matches; mails go out just after the answer, so it may take a moment. */
async function newestMail(url: string, matches: (mail: OutboxMail) => boolean, what: string): Promise<OutboxMail> {
  for (const until = Date.now() + 15_000; ; ) {
    const mails = (await (await fetch(`${url}/dev/mails.json`)).json()) as OutboxMail[];
    const found = mails.find(matches);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no mail ${what} in the outbox`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const mailWithSubject = (url: string, subject: string): Promise<OutboxMail> => newestMail(url, (mail) => mail.subject === subject, `"${subject}"`);

export const mailTo = (url: string, to: string): Promise<OutboxMail> => newestMail(url, (mail) => mail.to === to, `to ${to}`);

export const mailToWithSubject = (url: string, to: string, subject: string): Promise<OutboxMail> =>
  newestMail(url, (mail) => mail.to === to && mail.subject === subject, `"${subject}" to ${to}`);
