import { expect } from 'chai';
import { hasContextOptions, resolveUiOptions } from '../../../../src/client/engine/forms/uiOptions.js';

describe('forms/uiOptions: ui:options values read from the screen context', () => {
  const uiSchema = {
    users: {
      'ui:field': 'LearnerGrid',
      'ui:options': {
        maximum: '$data.serviceGroup.maximumUsers',
        maximumDivisor: '$form.serviceIds',
        heading: { by: '$data.serviceGroup.selection', keys: { multi: 'learnerGrid.heading.multi' } },
        label: 'learnerGrid.label',
      },
    },
    email: { 'ui:widget': 'email', 'ui:placeholder': '$not.an.option' },
  };

  it("reads '$' values inside ui:options from the context, '$form.…' from the form's data; other values and keys stay", () => {
    const resolved = resolveUiOptions(uiSchema, { data: { serviceGroup: { maximumUsers: 30, selection: 'multi' } }, form: { serviceIds: [1, 2] } });
    expect(resolved).to.deep.equal({
      users: {
        'ui:field': 'LearnerGrid',
        'ui:options': { maximum: 30, maximumDivisor: [1, 2], heading: { by: 'multi', keys: { multi: 'learnerGrid.heading.multi' } }, label: 'learnerGrid.label' },
      },
      email: { 'ui:widget': 'email', 'ui:placeholder': '$not.an.option' },
    });
  });

  it('tells whether a uiSchema has such values at all', () => {
    expect(hasContextOptions(uiSchema)).to.equal(true);
    expect(hasContextOptions({ email: { 'ui:widget': 'email', 'ui:options': { helpLink: 'links.x' } } })).to.equal(false);
    expect(hasContextOptions(undefined)).to.equal(false);
  });
});
