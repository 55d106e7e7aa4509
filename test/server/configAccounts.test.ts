import { expect } from 'chai';
import { ConfigError, loadConfig, parseDuration } from '../../src/server/config.js';
import { TEST_SECRET_KEY } from './support/testApp.js';

/** Outside demo mode the app secrets' key is required (issue 44). */
const KEY = { SECRET_KEY: TEST_SECRET_KEY };

describe('Configuration of mail, captcha, links and rate limits', () => {
  it('has defaults: captcha on, links 72 h and 1 h, 5 per address and 20 per client an hour, sender from PUBLIC_URL', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://portal.example.com', ...KEY });
    expect(config).to.include({ captcha: 'on', captchaSecret: undefined, activationTokenTtl: 259200, passwordResetTokenTtl: 3600, mailFrom: 'no-reply@portal.example.com' });
    expect(config.mailRateLimit).to.deep.equal({ perEmail: 5, perClient: 20, windowSeconds: 3600 });
    expect(config.registrationNotifyTo).to.deep.equal([]);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      CAPTCHA: 'off',
      CAPTCHA_SECRET: 's'.repeat(32),
      ACTIVATION_TOKEN_TTL: '7d',
      PASSWORD_RESET_TOKEN_TTL: '30m',
      MAIL_RATE_LIMIT_PER_EMAIL: '2',
      MAIL_RATE_LIMIT_PER_CLIENT: '9',
      MAIL_RATE_LIMIT_WINDOW: '600',
      MAIL_FROM: 'Portal <portal@example.com>',
      REGISTRATION_NOTIFY_TO: 'a@example.com, b@example.com',
    });
    expect(config).to.include({ captcha: 'off', activationTokenTtl: 604800, passwordResetTokenTtl: 1800, mailFrom: 'Portal <portal@example.com>' });
    expect(config.mailRateLimit).to.deep.equal({ perEmail: 2, perClient: 9, windowSeconds: 600 });
    expect(config.registrationNotifyTo).to.deep.equal(['a@example.com', 'b@example.com']);
  });

  it('refuses CAPTCHA=off in production, and wrong values', () => {
    expect(() => loadConfig({ CAPTCHA: 'off', NODE_ENV: 'production' })).to.throw(ConfigError, /CAPTCHA=off is for local use only/);
    expect(() => loadConfig({ CAPTCHA: 'maybe' })).to.throw(ConfigError, /CAPTCHA must be one of on, off/);
    expect(() => loadConfig({ CAPTCHA_SECRET: 'short' })).to.throw(ConfigError, /CAPTCHA_SECRET/);
    expect(() => loadConfig({ ACTIVATION_TOKEN_TTL: '3 weeks' })).to.throw(ConfigError, /ACTIVATION_TOKEN_TTL/);
    expect(() => loadConfig({ MAIL_RATE_LIMIT_PER_EMAIL: '0' })).to.throw(ConfigError, /MAIL_RATE_LIMIT_PER_EMAIL/);
    expect(() => loadConfig({ REGISTRATION_NOTIFY_TO: 'staff' })).to.throw(ConfigError, /REGISTRATION_NOTIFY_TO/);
    expect(() => loadConfig({ CAPTCHA: 'on', NODE_ENV: 'production', ...KEY })).not.to.throw();
  });

  it('parses durations', () => {
    expect(parseDuration('90')).to.equal(90);
    expect(parseDuration('90s')).to.equal(90);
    expect(parseDuration('5m')).to.equal(300);
    expect(parseDuration('72h')).to.equal(259200);
    expect(parseDuration('0')).to.equal(undefined);
    expect(parseDuration('1w')).to.equal(undefined);
  });
});
