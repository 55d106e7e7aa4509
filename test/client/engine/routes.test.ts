import { expect } from 'chai';
import { buildRouteTable, stepPath } from '../../../src/client/engine/routes.js';
import { loadScreens } from '../../../src/configuration/load.js';
import type { ScreenDefinition } from '../../../src/common/screens.js';

const plain: ScreenDefinition = { id: 'plain', path: '/plain', access: 'member', width: 'wide', title: 't', breadcrumb: [] };
const stepped: ScreenDefinition = {
  ...plain,
  id: 'stepped',
  path: '/stepped',
  access: 'public',
  form: { schema: 's', steps: ['input', 'confirm', 'done'], submit: { method: 'POST', path: 'x', label: 'l' } },
};

describe('route table from screens/', () => {
  it('keeps each screen’s path, access class and width', () => {
    const [entry] = buildRouteTable([plain]);
    expect(entry).to.include({ path: '/plain', access: 'member', width: 'wide' });
    expect(entry.screen).to.equal(plain);
  });

  it('gives a form screen with steps an optional step segment', () => {
    expect(buildRouteTable([stepped])[0].path).to.equal('/stepped/:step?');
  });

  it('puts the first step on the screen’s own path and later steps below it', () => {
    expect(stepPath(stepped, 'input')).to.equal('/stepped');
    expect(stepPath(stepped, 'confirm')).to.equal('/stepped/confirm');
    expect(stepPath(stepped, 'done')).to.equal('/stepped/done');
  });

  it('routes the registration request screen publicly at /registration with its steps', () => {
    const registration = buildRouteTable(loadScreens()).find((entry) => entry.screen.id === 'registration');
    expect(registration).to.include({ path: '/registration/:step?', access: 'public', width: 'normal' });
  });
});
