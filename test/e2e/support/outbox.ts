/** The demo outbox (`/dev/mails.json`): the mails the portal sent, as the e2e tests read them. */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The outbox's mail with this subject; mails go out just after the answer, so it may take a moment. */
export async function mailWithSubject(url: string, subject: string): Promise<OutboxMail> {
  for (const until = Date.now() + 15_000; ; ) {
    const mails = (await (await fetch(`${url}/dev/mails.json`)).json()) as OutboxMail[];
    const found = mails.find((mail) => mail.subject === subject);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no mail "${subject}" in the outbox`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
