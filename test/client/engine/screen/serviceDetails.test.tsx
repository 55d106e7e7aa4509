/**
 * Service Details (SPEC 2.8, screens/service-details.json) through the engine, for a manager and a member: the two
 * layouts, the end-of-service notice, the dashboard texts by group and link label, the member warning and the
 * subscribe button, and what the detail call's failures do (SPEC §8 'Other').
 */
import { expect } from 'chai';
import { cleanup, waitFor } from '@testing-library/react';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { jsonResponse, settle } from '../../api/harness.js';
import { wireService } from './fixtures.js';
import { MANAGER, MEMBER, renderScreen } from './support.js';

type Category = 'description' | 'purchase' | 'history' | 'admin' | 'terms' | 'other_sso';
const link = (category: Category, url: string, label: string) => ({ url, category, label });

const service = (id: number, groupId: number, name: string, urls: ReturnType<typeof link>[]) => ({
  service: wireService(id, name, { image_url: 'data:image/svg+xml,banner', urls, service_group: { id: groupId, name, urls: [] } }),
});

const MORE = link('description', 'https://hodaiplus.example.com/', 'For more info');
const SUBSCRIBE = (id: number) => link('purchase', `/subscription/group/${id}/new`, 'Subscribe');

const open = (id: number, body: unknown, signedIn = MANAGER, status = 200) =>
  renderScreen('serviceDetails', { url: `/services/${id}`, signedIn, routes: { [`GET /api/v2/services/${id}`]: () => jsonResponse(status, body) } });

const flashes = (store: { getState(): unknown }) => selectFlashMessages(store.getState() as never).map((message) => message.messageKey);

describe('Service Details (SPEC 2.8)', () => {
  afterEach(cleanup);

  describe('a manager', () => {
    it('hodaiplus: the end-of-service notice with its help link, description, landing link, both dashboard texts chosen by label, subscribe in the app', async () => {
      const { view, calls } = await open(
        3,
        service(3, 3, 'Library Plus (legacy)', [
          MORE,
          SUBSCRIBE(3),
          link('admin', 'https://admin.hodaiplus.example.com/?glopla_id=G0000001', 'Unlimited Library admin'),
          link('admin', 'https://admin.emba.example.com/?glopla_id=G0000001', 'eMBA2 admin'),
        ]),
      );
      await view.findByRole('heading', { name: 'Library Plus (legacy)' });
      expect(calls('GET', '/api/v2/services/3')[0]!.args[0]).to.contain('lang=en');
      view.getByText(/The corporate service of this product ends at the end of July 2026/);
      expect(view.getByRole('link', { name: 'Read the help article' }).getAttribute('href')).to.equal('https://www.example.com/faq/service-end/');
      view.getByText('About Library Plus (legacy).');
      expect(view.getByRole('link', { name: 'For more info' }).getAttribute('target')).to.equal('_blank');
      const library = view.getByRole('link', { name: 'Unlimited Library admin' });
      expect(library.closest('li')!.textContent).to.contain('The library part of your plus bundle');
      expect(view.getByRole('link', { name: 'eMBA2 admin' }).closest('li')!.textContent).to.contain('The eMBA2 part of your plus bundle');
      const subscribe = view.getByRole('link', { name: 'Subscribe' });
      expect(subscribe.getAttribute('href')).to.equal('/subscription/group/3/new');
      expect(subscribe.hasAttribute('target')).to.equal(false);
      expect(view.queryByText('Only Principal Admins can subscribe to this service')).to.equal(null);
    });

    it('newhodaiplus: the library text for the unlimited-learning words, the MBA text for eMBA; no end-of-service notice', async () => {
      const { view } = await open(
        9,
        service(9, 9, 'Library Plus', [link('admin', 'https://a.example.com/', '見放題 管理画面'), link('admin', 'https://b.example.com/', 'eMBA admin'), SUBSCRIBE(9)]),
      );
      await view.findByRole('heading', { name: 'Library Plus' });
      expect(view.getByRole('link', { name: '見放題 管理画面' }).closest('li')!.textContent).to.contain('The library part of your Library Plus bundle');
      expect(view.getByRole('link', { name: 'eMBA admin' }).closest('li')!.textContent).to.contain('The eMBA part of your Library Plus bundle');
      expect(view.queryByText(/ends at the end of July 2026/)).to.equal(null);
    });

    it('hodai: its own dashboard text and no subscribe button, even with a purchase link', async () => {
      const { view } = await open(1, service(1, 1, 'Unlimited Library', [MORE, SUBSCRIBE(1), link('admin', 'https://admin.example.com/', 'Admin')]));
      await view.findByRole('heading', { name: 'Unlimited Library' });
      expect(view.getByRole('link', { name: 'Admin' }).closest('li')!.textContent).to.contain("in the library's admin dashboard");
      expect(view.queryByRole('link', { name: 'Subscribe' })).to.equal(null);
    });

    it('gu: no subscribe button; newemba: its own text and the subscribe button', async () => {
      const gu = await open(7, service(7, 7, 'Global Unlimited', [SUBSCRIBE(7), link('admin', 'https://admin.example.com/', 'Admin')]));
      await gu.view.findByRole('heading', { name: 'Global Unlimited' });
      expect(gu.view.getByRole('link', { name: 'Admin' }).closest('li')!.textContent).to.contain('Global Unlimited admin dashboard');
      expect(gu.view.queryByRole('link', { name: 'Subscribe' })).to.equal(null);
      cleanup();
      const newemba = await open(10, service(10, 10, 'New Online MBA', [SUBSCRIBE(10), link('admin', 'https://admin.example.com/', 'Admin')]));
      await newemba.view.findByRole('heading', { name: 'New Online MBA' });
      expect(newemba.view.getByRole('link', { name: 'Admin' }).closest('li')!.textContent).to.contain('New Online MBA admin dashboard');
      newemba.view.getByRole('link', { name: 'Subscribe' });
    });

    it('an absolute subscribe link opens in a new tab', async () => {
      const { view } = await open(5, service(5, 5, 'School-type Training', [link('purchase', 'https://school.example.com/apply', 'Subscribe')]));
      const subscribe = await view.findByRole('link', { name: 'Subscribe' });
      expect(subscribe.getAttribute('href')).to.equal('https://school.example.com/apply');
      expect(subscribe.getAttribute('target')).to.equal('_blank');
    });

    it('id 4: the project layout — landing link, the other_sso button, the notice, the admin links, the second notice; no right column', async () => {
      const { view } = await open(
        4,
        service(4, 4, 'Class-based Training', [
          link('description', 'https://gls.example.com/', 'For more info'),
          SUBSCRIBE(4),
          link('other_sso', 'https://sso.gls.example.com/login?glopla_id=G0000001', 'Sign in to Class-based Training'),
          link('admin', 'https://admin.gls.example.com/?locale=en', 'Admin dashboard'),
        ]),
      );
      await view.findByRole('heading', { name: 'Class-based Training' });
      view.getByRole('link', { name: 'For more info' });
      view.getByRole('link', { name: 'Sign in to Class-based Training' });
      view.getByText('Register learners in your classes and follow their attendance in the admin dashboard.');
      expect(view.getByRole('link', { name: 'Admin dashboard' }).getAttribute('href')).to.equal('https://admin.gls.example.com/?locale=en');
      view.getByText(/Projects and classes are set up by our staff/);
      expect(view.queryByRole('link', { name: 'Subscribe' })).to.equal(null);
      expect(view.container.querySelector('.columns__column--side')).to.equal(null);
    });

    it('a link of the data that is not http(s) is not shown', async () => {
      const { view } = await open(10, service(10, 10, 'New Online MBA', [link('admin', 'javascript:alert(1)', 'Admin')]));
      await view.findByRole('heading', { name: 'New Online MBA' });
      expect(view.queryByRole('link', { name: 'Admin' })).to.equal(null);
    });
  });

  describe('a member', () => {
    for (const [id, name] of [
      [1, 'Unlimited Library'],
      [2, 'Online MBA 2.0'],
      [3, 'Library Plus (legacy)'],
    ] as const) {
      it(`group ${id}: the warning 'Only Principal Admins can subscribe to this service', the admin links, no subscribe button`, async () => {
        // the server answers a member only the description, admin and other_sso links
        const { view } = await open(id, service(id, id, name, [MORE, link('admin', 'https://admin.example.com/', 'Admin')]), MEMBER);
        await view.findByRole('heading', { name });
        view.getByText('Only Principal Admins can subscribe to this service');
        view.getByRole('link', { name: 'Admin' });
        view.getByRole('link', { name: 'For more info' });
        expect(view.queryByRole('link', { name: 'Subscribe' })).to.equal(null);
      });
    }

    it('other groups: no warning', async () => {
      const { view } = await open(10, service(10, 10, 'New Online MBA', [MORE]), MEMBER);
      await view.findByRole('heading', { name: 'New Online MBA' });
      expect(view.queryByText('Only Principal Admins can subscribe to this service')).to.equal(null);
    });
  });

  describe('the detail call (SPEC §8 Other)', () => {
    it('404: to top, replacing the page', async () => {
      const { navigate, store } = await open(8, { error: 'not_found' }, MANAGER, 404);
      await waitFor(() => expect(navigate.calledWith('/', sinonMatchReplace())).to.equal(true));
      expect(flashes(store)).to.deep.equal([]);
    });

    it('an empty answer: to top', async () => {
      const { navigate } = await open(1, {}, MANAGER);
      await waitFor(() => expect(navigate.calledWith('/', sinonMatchReplace())).to.equal(true));
    });

    it('401 is ignored: no flash, no navigation', async () => {
      const { navigate, store } = await open(1, { error: 'invalid_access_token' }, MANAGER, 401);
      await settle(40);
      expect(flashes(store)).to.deep.equal([]);
      expect(navigate.called).to.equal(false);
    });

    it('another error: unexpected error', async () => {
      const { navigate, store } = await open(1, { error: 'internal' }, MANAGER, 500);
      await waitFor(() => expect(flashes(store)).to.deep.equal(['errors.unexpected']));
      expect(navigate.called).to.equal(false);
    });
  });
});

function sinonMatchReplace() {
  return { replace: true, state: undefined };
}
