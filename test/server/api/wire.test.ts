import { expect } from 'chai';
import { fromWire, jsonListAnswer, toWire, wireField } from '../../../src/server/api/wire.js';

describe('server/api/wire', () => {
  it('camelCases keys deeply, arrays of objects too, and trims every string', () => {
    const input = {
      corporation_name: '  Acme  ',
      service_ids: [1, 2],
      users: [{ first_name: ' Taro ', kana_last_name: 'やまだ\u3000' }],
      nested: { billing_contact: { cc_email: ' a@b.jp\n' } },
      empty: null,
      flag: true,
    };
    expect(fromWire(input)).to.deep.equal({
      corporationName: 'Acme',
      serviceIds: [1, 2],
      users: [{ firstName: 'Taro', kanaLastName: 'やまだ' }],
      nested: { billingContact: { ccEmail: 'a@b.jp' } },
      empty: null,
      flag: true,
    });
  });

  it('drops __proto__ keys instead of touching prototypes', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a_b": 1}');
    const result = fromWire(parsed) as Record<string, unknown>;
    expect(result).to.deep.equal({ aB: 1 });
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('snake_cases response keys deeply and leaves dates alone', () => {
    const date = new Date('2025-01-02T03:04:05Z');
    expect(toWire({ registrationRequest: { createdAt: date, contentJa: 'x', items: [{ gloplaId: 'G1' }] } })).to.deep.equal({
      registration_request: { created_at: date, content_ja: 'x', items: [{ glopla_id: 'G1' }] },
    });
  });

  it('renders field paths in snake_case joined by dots', () => {
    expect(wireField(['users', 0, 'firstName'])).to.equal('users.0.first_name');
  });

  it('writes a list of items already in JSON as one answer in UTF-8: the key in snake_case, the items comma-separated, the members after it', () => {
    const answer = jsonListAnswer('corporateSubscriptions', ['{"name":"クラスA"}', '{"name":"B"}'], ',"next_page":2');
    expect(answer).to.be.instanceOf(Buffer);
    expect(answer.toString('utf8')).to.equal('{"corporate_subscriptions":[{"name":"クラスA"},{"name":"B"}],"next_page":2}');
    expect(jsonListAnswer('affiliations', []).toString('utf8')).to.equal('{"affiliations":[]}');
  });
});
