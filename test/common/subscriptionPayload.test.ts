import { expect } from 'chai';
import { subscriptionPayload, type SubscriptionPayloadOptions } from '../../src/common/subscriptionPayload.js';

const learner = { firstName: 'Ken', lastName: 'Sato', kanaFirstName: 'けん', kanaLastName: 'さとう', email: 'ken@example.com' };
const base = { serviceGroupId: 2, serviceIds: [14], startsOn: '2026-12-01', adminIds: [1], users: [learner], billingContactId: 3, contactId: 7, billingNote: 'PO 1', projectClassId: 0 };
/** What goes on the wire for `base`: the class 'none' (0) as null (SPEC §7). */
const sentBase = { ...base, projectClassId: null };
const create: SubscriptionPayloadOptions = { mode: 'create' };
const update: SubscriptionPayloadOptions = { mode: 'update', snapshot: { contactId: 7, billingContactId: 3 } };

describe('SPEC §7 subscription payload rules (subscriptionPayload)', () => {
  const rows: Array<{ rule: string; data: Record<string, unknown>; options: SubscriptionPayloadOptions; sent: Record<string, unknown> }> = [
    { rule: 'create without a class: everything as entered, class 0 (none) sent as null', data: base, options: create, sent: sentBase },
    { rule: 'an absent class is none (null)', data: { ...base, projectClassId: undefined }, options: create, sent: sentBase },
    {
      rule: 'create with a class: the contact ids are dropped, the billing note kept',
      data: { ...base, projectClassId: 21 },
      options: create,
      sent: { serviceGroupId: 2, serviceIds: [14], startsOn: '2026-12-01', adminIds: [1], users: [learner], billingNote: 'PO 1', projectClassId: 21 },
    },
    {
      rule: 'update: contact ids unchanged from the snapshot are left out',
      data: base,
      options: update,
      sent: { serviceGroupId: 2, serviceIds: [14], startsOn: '2026-12-01', adminIds: [1], users: [learner], billingNote: 'PO 1', projectClassId: null },
    },
    { rule: 'update: changed contact ids are sent', data: { ...base, contactId: 8, billingContactId: 4 }, options: update, sent: { ...sentBase, contactId: 8, billingContactId: 4 } },
    {
      rule: 'update: one changed, one unchanged',
      data: { ...base, contactId: 8 },
      options: update,
      sent: { serviceGroupId: 2, serviceIds: [14], startsOn: '2026-12-01', adminIds: [1], users: [learner], billingNote: 'PO 1', projectClassId: null, contactId: 8 },
    },
    {
      rule: 'update with a class: contact ids and the billing note are dropped',
      data: { ...base, projectClassId: 21, contactId: 8 },
      options: update,
      sent: { serviceGroupId: 2, serviceIds: [14], startsOn: '2026-12-01', adminIds: [1], users: [learner], projectClassId: 21 },
    },
    {
      rule: 'learner rows: an id only for an existing learner (0 or none: new), blank rows dropped, values trimmed, local keys left out',
      data: { ...base, users: [{ id: 5, ...learner }, { id: 0, ...learner, email: ' new@example.com ' }, { firstName: '', lastName: ' ', kanaFirstName: '', kanaLastName: '', email: '' }, { key: 3, ...learner }] },
      options: create,
      sent: { ...sentBase, users: [{ id: 5, ...learner }, { ...learner, email: 'new@example.com' }, learner] },
    },
    {
      rule: 'a start date entered as MM-dd-yyyy is sent as yyyy-MM-dd (SPEC §5)',
      data: { ...base, startsOn: '12-01-2026' },
      options: create,
      sent: sentBase,
    },
  ];
  for (const { rule, data, options, sent } of rows) {
    it(rule, () => {
      expect(subscriptionPayload(data, options)).to.deep.equal(sent);
    });
  }

  it('does not change the form data it is given', () => {
    const data = { ...base, projectClassId: 21 };
    subscriptionPayload(data, update);
    expect(data).to.deep.equal({ ...base, projectClassId: 21 });
  });
});
