import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { solvedCaptcha } from '../support/captcha.js';
import { createTestApp, freePort, useTestApp, type TestApp } from '../support/testApp.js';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives. */
async function startSmtpServer(): Promise<{ port: number; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The decoded text of a quoted-printable or base64 MIME part with this content type. */
function part(raw: string, contentType: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  const sections = boundary ? raw.split(`--${boundary}`) : [raw];
  const section = sections.find((candidate) => new RegExp(`Content-Type: ${contentType}`, 'i').test(candidate));
  if (!section) throw new Error(`no ${contentType} part`);
  const [headers, ...body] = section.split(/\r?\n\r?\n/);
  const content = body.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(headers!)) return Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers!)) {
    const bytes = content.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return content;
}

describe('Mail delivery through SMTP (SMTP_URL, a local smtp-server)', function () {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let testApp: TestApp;

  before(async function () {
    this.timeout(60_000);
    smtp = await startSmtpServer();
    testApp = await createTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Portal <no-reply@portal.example.com>',
        PUBLIC_URL: 'https://portal.example.com',
        REGISTRATION_NOTIFY_TO: 'staff@provider.example.com, sales@provider.example.com',
      },
    });
    await testApp.db.insertInto('admins').values([{ email: 'pending@example.com' }]).execute();
  });
  after(async () => {
    await testApp?.close();
    await smtp?.close();
  });

  it('sends the activation mail with a text and an HTML part, from MAIL_FROM, linking to PUBLIC_URL', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v2/admin/account_activation_email?lang=en',
      payload: { email: 'pending@example.com', ...(await solvedCaptcha(testApp.app)) },
    });
    expect(response.statusCode).to.equal(200);
    await testApp.app.mailQueue.drain(); // mails go out after the answer
    expect(smtp.received).to.have.length(1);
    const [mail] = smtp.received;
    expect(mail!.from).to.equal('no-reply@portal.example.com');
    expect(mail!.to).to.deep.equal(['pending@example.com']);
    expect(mail!.raw).to.match(/^Subject: Activate your administrator account\r?$/m);
    expect(mail!.raw).to.match(/Content-Type: multipart\/alternative/i);
    const text = part(mail!.raw, 'text/plain');
    const html = part(mail!.raw, 'text/html');
    const link = /https:\/\/portal\.example\.com\/admins\/\d+\/activate\/[A-Za-z0-9_-]+\?locale=en/.exec(text)?.[0];
    expect(link, text).to.be.a('string');
    expect(html).to.contain(`<a href="${link}">Activate my account</a>`);
    expect(html).to.contain('<html lang="en">');
  });

  it('keeps nothing in the outbox', async () => {
    const outbox = await testApp.app.inject({ url: '/dev/mails.json' });
    expect(outbox.json()).to.deep.equal([]);
    const page = await testApp.app.inject({ url: '/dev/mails' });
    expect(page.body).to.contain('SMTP_URL is set');
  });

  it('a registration request mails the staff (REGISTRATION_NOTIFY_TO, in Japanese) and the applicant (in the request language)', async () => {
    smtp.received.length = 0;
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v2/registration_requests',
      headers: { 'accept-language': 'en-US,en;q=0.9,ja;q=0.8' },
      payload: {
        corporation_name: 'Example Learning Inc.',
        departments: 'HR',
        person_in_charge: 'Hanako Suzuki',
        phone_number: '03-1234-5678',
        email: 'hanako@example.com',
        zip_code: '102-0083',
        address: 'Tokyo',
        scale_of_employees: '300to499',
        ...(await solvedCaptcha(testApp.app)),
      },
    });
    expect(response.statusCode).to.equal(201);
    await testApp.app.mailQueue.drain();
    expect(smtp.received).to.have.length(2);
    const staff = smtp.received.find((mail) => mail.to.includes('staff@provider.example.com'))!;
    expect(staff.to).to.have.members(['staff@provider.example.com', 'sales@provider.example.com']);
    const staffText = part(staff.raw, 'text/plain');
    expect(staffText).to.contain('会社名: Example Learning Inc.').and.contain('従業員数: 300〜499名').and.contain('役職: （未入力）');
    const applicant = smtp.received.find((mail) => mail.to.includes('hanako@example.com'))!;
    expect(applicant.raw).to.match(/^Subject: We have received your application for a corporate account\r?$/m);
    const applicantText = part(applicant.raw, 'text/plain');
    const { id } = response.json().registration_request;
    expect(applicantText).to.contain(`We have received your application (reference ${id}).`).and.not.contain('Example Learning Inc.');
  });
});

describe('The outbox (no SMTP_URL): /dev/mails and /dev/mails.json', () => {
  const ctx = useTestApp({ env: { PUBLIC_URL: 'http://portal.test:3000' } });

  before(async () => {
    await ctx.db.insertInto('admins').values([{ email: 'one@example.com' }, { email: 'two@example.com' }]).execute();
    for (const email of ['one@example.com', 'two@example.com']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/admin/account_activation_email',
        payload: { email, ...(await solvedCaptcha(ctx.app)) },
      });
      expect(response.statusCode).to.equal(200);
    }
  });

  it('answers [{id, to, subject, text, html, links, sentAt}], newest first, with absolute links', async () => {
    const response = await ctx.app.inject({ url: '/dev/mails.json' });
    expect(response.statusCode).to.equal(200);
    expect(response.headers['content-type']).to.match(/^application\/json/);
    const mails = response.json();
    expect(mails).to.have.length(2);
    for (const mail of mails) {
      expect(mail).to.have.all.keys('id', 'to', 'subject', 'text', 'html', 'links', 'sentAt');
      expect(mail.id).to.be.a('number');
      expect(new Date(mail.sentAt).toISOString()).to.equal(mail.sentAt);
      expect(mail.links).to.have.length(1);
      expect(mail.links[0]).to.match(/^http:\/\/portal\.test:3000\/admins\/\d+\/activate\/[A-Za-z0-9_-]+\?locale=ja$/);
      expect(mail.text).to.contain(mail.links[0]);
      expect(mail.html).to.match(/^<!doctype html>/);
    }
    expect(mails.map((mail: { to: string }) => mail.to)).to.deep.equal(['two@example.com', 'one@example.com']);
    expect(mails[0].id).to.be.greaterThan(mails[1].id);
  });

  it('shows the mails as an HTML page, newest first, with each HTML part on its own page', async () => {
    const page = await ctx.app.inject({ url: '/dev/mails' });
    expect(page.statusCode).to.equal(200);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.body.indexOf('two@example.com')).to.be.lessThan(page.body.indexOf('one@example.com'));
    const [mail] = (await ctx.app.inject({ url: '/dev/mails.json' })).json();
    const html = await ctx.app.inject({ url: `/dev/mails/${mail.id}.html` });
    expect(html.body).to.equal(mail.html);
    expect((await ctx.app.inject({ url: '/dev/mails/999999.html' })).statusCode).to.equal(404);
  });
});

describe('The outbox in production', () => {
  const ctx = useTestApp({ env: { NODE_ENV: 'production', DEMO: undefined } });

  it('is not served', async () => {
    const json = await ctx.app.inject({ url: '/dev/mails.json' });
    expect(json.statusCode).to.equal(404);
    const page = await ctx.app.inject({ url: '/dev/mails', headers: { accept: 'text/html' } });
    expect(page.body).not.to.contain('Outbox');
  });
});
