import { expect } from 'chai';
import { text } from 'node:stream/consumers';
import { fromWire, jsonListAnswer, streamedJsonList, streamedList, streamedWireList, toWire, wireField, wireItems } from '../../../src/server/api/wire.js';

async function* batchesOf<T>(...batches: T[]): AsyncGenerator<T> {
  yield* batches;
}

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

  it('streams a list a batch at a time as one answer, from items, items in JSON or batches in wire form alike: the head first, empty batches left out', async () => {
    const expected = { errors: [{ row_no: 2 }], users: [{ first_name: '太郎' }, { first_name: 'Jo' }, { first_name: 'Ann' }] };
    const head = { errors: [{ rowNo: 2 }] };
    const items = [[{ firstName: '太郎' }], [], [{ firstName: 'Jo' }, { firstName: 'Ann' }]];
    expect(JSON.parse(await text(streamedList('users', batchesOf(...items), head)))).to.deep.equal(expected);
    expect(JSON.parse(await text(streamedJsonList('users', batchesOf(...items.map((batch) => batch.map((item) => JSON.stringify(toWire(item))))), head)))).to.deep.equal(expected);
    expect(JSON.parse(await text(streamedWireList('users', batchesOf(...items.map(wireItems)), head)))).to.deep.equal(expected);
    expect(await text(streamedList('users', batchesOf<unknown[]>()))).to.equal('{"users":[]}');
  });
});
