import { expect } from 'chai';
import { basePath, buildRouteTable, fillRoute, stepPath } from '../../../src/client/engine/routes.js';
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
  it('keeps each screen’s path and access class, and the screen itself (its width, title…)', () => {
    const [entry] = buildRouteTable([plain]);
    expect(entry).to.include({ path: '/plain', access: 'member' });
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
    expect(registration).to.include({ path: '/registration/:step?', access: 'public' });
    expect(registration?.screen.width).to.equal('normal');
  });

  describe('a screen naming its step segment in its own path (SPEC 2.11: /subscription/group/:serviceGroupId/new/:step?)', () => {
    const wizard: ScreenDefinition = { ...stepped, id: 'wizard', path: '/subscription/group/:serviceGroupId/new/:step?' };

    it('keeps that path as the route (no second step segment)', () => {
      expect(buildRouteTable([wizard])[0].path).to.equal('/subscription/group/:serviceGroupId/new/:step?');
      expect(basePath(wizard)).to.equal('/subscription/group/:serviceGroupId/new');
    });

    it("fills the step URLs' placeholders from the route's parameters", () => {
      const params = { serviceGroupId: '2', step: 'confirm' };
      expect(stepPath(wizard, 'input', params)).to.equal('/subscription/group/2/new');
      expect(stepPath(wizard, 'confirm', params)).to.equal('/subscription/group/2/new/confirm');
      expect(stepPath(wizard, 'done', params)).to.equal('/subscription/group/2/new/done');
    });

    it('leaves a placeholder without a value as it is, and encodes values', () => {
      expect(fillRoute('/a/:x/b/:y', { x: 'a b' })).to.equal('/a/a%20b/b/:y');
    });

    it('routes both wizards of screens/ as admin-only screens with their steps', () => {
      const table = buildRouteTable(loadScreens());
      expect(table.find((entry) => entry.screen.id === 'subscription-new')).to.include({ path: '/subscription/group/:serviceGroupId/new/:step?', access: 'admin' });
      expect(table.find((entry) => entry.screen.id === 'subscription-edit')).to.include({ path: '/subscription/:requestCode/edit/:step?', access: 'admin' });
    });
  });
});
