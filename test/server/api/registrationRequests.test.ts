import { expect } from 'chai';
import { solvedCaptcha } from '../support/captcha.js';
import { useTestApp } from '../support/testApp.js';

const wireBody = {
  corporation_name: '株式会社テスト',
  departments: '人事部',
  position: '課長',
  person_in_charge: '山田 太郎',
  phone_number: '03-1234-5678',
  email: 'taro@example.com',
  zip_code: '100-0001',
  address: '東京都千代田区1-1',
  corporation_url: 'https://example.com',
  scale_of_employees: '300to499',
};

describe('POST /api/v2/registration_requests', () => {
  // the form's rules; the captcha and the limits are tested below
  const ctx = useTestApp({ env: { CAPTCHA: 'off', MAIL_RATE_LIMIT_PER_CLIENT: '1000', MAIL_RATE_LIMIT_PER_EMAIL: '1000' } });

  const post = (payload: unknown) => ctx.app.inject({ method: 'POST', url: '/api/v2/registration_requests', payload: payload as object });

  it('stores a valid request and answers 201 in snake_case', async () => {
    const response = await post(wireBody);
    expect(response.statusCode).to.equal(201);
    const body = response.json();
    expect(body).to.have.key('registration_request');
    const created = body.registration_request;
    expect(created).to.include({ ...wireBody });
    expect(created.id).to.be.a('number');
    expect(new Date(created.created_at).getTime()).to.be.closeTo(Date.now(), 60_000);

    const row = await ctx.db.selectFrom('registrationRequests').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).to.include({ corporationName: '株式会社テスト', zipCode: '100-0001', scaleOfEmployees: '300to499', corporationUrl: 'https://example.com' });
  });

  it('trims every string before validating and storing', async () => {
    const response = await post({ ...wireBody, corporation_name: '  Acme Inc.\t', email: ' acme@example.com ', position: '   ' });
    expect(response.statusCode).to.equal(201);
    const { id } = response.json().registration_request;
    const row = await ctx.db.selectFrom('registrationRequests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.corporationName).to.equal('Acme Inc.');
    expect(row.email).to.equal('acme@example.com');
    expect(row.position).to.equal(null); // blank optional field
  });

  it('stores absent optional fields as null', async () => {
    const { position, corporation_url, ...required } = wireBody;
    const response = await post(required);
    expect(response.statusCode).to.equal(201);
    expect(response.json().registration_request).to.include({ position: null, corporation_url: null });
  });

  it('answers 422 with blank for missing and empty fields', async () => {
    const response = await post({ ...wireBody, corporation_name: '   ', departments: undefined, address: null });
    expect(response.statusCode).to.equal(422);
    expect(response.json()).to.deep.equal({
      errors: [
        { field: 'corporation_name', code: 'blank', meta: {} },
        { field: 'departments', code: 'blank', meta: {} },
        { field: 'address', code: 'blank', meta: {} },
      ],
    });
  });

  it('answers 422 tooLong with the length', async () => {
    const response = await post({ ...wireBody, address: 'あ'.repeat(101), zip_code: '12345-123456' });
    expect(response.statusCode).to.equal(422);
    expect(response.json().errors).to.deep.equal([
      { field: 'zip_code', code: 'tooLong', meta: { length: 11 } },
      { field: 'address', code: 'tooLong', meta: { length: 100 } },
    ]);
  });

  it('answers 422 invalid for a bad e-mail, phone number and postal code', async () => {
    const response = await post({ ...wireBody, email: 'taro@', phone_number: '-0312345678', zip_code: '1-2' });
    expect(response.statusCode).to.equal(422);
    expect(response.json().errors).to.deep.equal([
      { field: 'phone_number', code: 'invalid', meta: {} },
      { field: 'email', code: 'invalid', meta: { message_key: 'validation.emailInvalid' } },
      { field: 'zip_code', code: 'invalid', meta: {} },
    ]);
  });

  it('answers 422 invalid for a value outside the choices', async () => {
    const response = await post({ ...wireBody, scale_of_employees: '1to10' });
    expect(response.statusCode).to.equal(422);
    expect(response.json().errors).to.deep.equal([{ field: 'scale_of_employees', code: 'invalid', meta: {} }]);
  });

  it('stores nothing when validation fails', async () => {
    const before = await ctx.db.selectFrom('registrationRequests').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await post({ ...wireBody, email: '' });
    const after = await ctx.db.selectFrom('registrationRequests').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).to.equal(Number(before.n));
  });

  it('answers 400 bad_request for malformed JSON and for a body that is not an object', async () => {
    const malformed = await ctx.app.inject({ method: 'POST', url: '/api/v2/registration_requests', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(malformed.statusCode).to.equal(400);
    expect(malformed.json()).to.deep.equal({ error: 'bad_request' });

    const array = await post([wireBody]);
    expect(array.statusCode).to.equal(400);
    expect(array.json()).to.deep.equal({ error: 'bad_request' });
  });

  it('refuses bodies that are not JSON objects, without leaking details', async () => {
    const text = await ctx.app.inject({ method: 'POST', url: '/api/v2/registration_requests', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).to.equal(400);
    expect(text.json()).to.deep.equal({ error: 'bad_request' });

    const multipart = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/registration_requests',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.jp\r\n--x--\r\n',
    });
    expect(multipart.statusCode).to.equal(415);
    expect(multipart.json()).to.deep.equal({ error: 'bad_request' });
  });
});

describe('POST /api/v2/registration_requests is no open mail relay (issue 7 finding 8)', () => {
  const ctx = useTestApp({ env: { MAIL_RATE_LIMIT_PER_CLIENT: '3', MAIL_RATE_LIMIT_PER_EMAIL: '2', REGISTRATION_NOTIFY_TO: 'staff@provider.example.com' } });
  const post = async (payload: Record<string, unknown>, remoteAddress = '198.51.100.1', captcha = true) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v2/registration_requests',
      remoteAddress,
      payload: { ...payload, ...(captcha ? await solvedCaptcha(ctx.app) : {}) },
    });
  const stored = async () => Number((await ctx.db.selectFrom('registrationRequests').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const mailsTo = async (address: string) => {
    await ctx.app.mailQueue.drain(); // mails go out after the answer
    return ctx.db.selectFrom('mails').selectAll().where('recipients', 'like', `%${address}%`).execute();
  };

  it('refuses a request without a solved captcha with 401 captcha_invalid, storing and mailing nothing', async () => {
    const before = await stored();
    const response = await post({ ...wireBody, email: 'nocaptcha@example.com' }, '198.51.100.9', false);
    expect(response.statusCode).to.equal(401);
    expect(response.json()).to.deep.equal({ error: 'captcha_invalid' });
    expect(await stored()).to.equal(before);
    expect(await mailsTo('nocaptcha@example.com')).to.have.length(0);
  });

  it('limits requests per e-mail address: 429 too_many_requests with Retry-After', async () => {
    const body = { ...wireBody, email: 'victim@example.com' };
    expect((await post(body, '198.51.100.2')).statusCode).to.equal(201);
    expect((await post(body, '198.51.100.3')).statusCode).to.equal(201);
    const third = await post(body, '198.51.100.4');
    expect(third.statusCode).to.equal(429);
    expect(third.json()).to.deep.equal({ error: 'too_many_requests' });
    expect(Number(third.headers['retry-after'])).to.be.greaterThan(0);
    expect(await mailsTo('victim@example.com')).to.have.length(2);
  });

  it('limits requests per client address, checked before the captcha', async () => {
    for (let i = 0; i < 3; i++) expect((await post({ ...wireBody, email: `many${i}@example.com` }, '198.51.100.5')).statusCode).to.equal(201);
    const over = await post({ ...wireBody, email: 'many9@example.com' }, '198.51.100.5', false);
    expect(over.statusCode).to.equal(429);
    expect(over.headers['retry-after']).to.be.a('string');
  });

  it("shares the limits with the activation and reset mail requests", async () => {
    const address = '198.51.100.6';
    for (let i = 0; i < 3; i++) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/admin/reset_password_token_call',
        remoteAddress: address,
        payload: { email: `reset${i}@example.com`, ...(await solvedCaptcha(ctx.app)) },
      });
      expect(response.statusCode).to.equal(200);
    }
    expect((await post({ ...wireBody, email: 'after-resets@example.com' }, address)).statusCode).to.equal(429);
  });

  it("mails the applicant none of the applicant's free text or URL; the staff get everything", async () => {
    const response = await post({ ...wireBody, email: 'spam-target@example.com', corporation_name: 'BUY CHEAP PILLS', departments: 'visit', person_in_charge: 'Dear friend', address: 'click here', corporation_url: 'https://spam.example.net/offer', position: 'winner' }, '198.51.100.7');
    expect(response.statusCode).to.equal(201);
    const [applicant] = await mailsTo('spam-target@example.com');
    for (const text of ['BUY CHEAP PILLS', 'visit', 'Dear friend', 'click here', 'spam.example.net', 'winner']) {
      expect(applicant!.textPart, text).not.to.include(text);
      expect(applicant!.htmlPart, text).not.to.include(text);
      expect(applicant!.subject, text).not.to.include(text);
    }
    expect(applicant!.links).to.deep.equal([]);
    const staff = await ctx.db.selectFrom('mails').selectAll().where('recipients', '=', 'staff@provider.example.com').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(staff.textPart).to.include('BUY CHEAP PILLS').and.include('https://spam.example.net/offer');
    expect(staff.textPart).not.to.include('capy');
  });
});
