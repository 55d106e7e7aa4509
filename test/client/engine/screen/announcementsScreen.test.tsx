import { expect } from 'chai';
import { cleanup, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../api/harness.js';
import { MANAGER, renderScreen } from './support.js';

const ARTICLES = 'GET /api/v2/announcements/articles';

describe('engine/screen: the announcement page (screens/announcements.json, list block)', () => {
  afterEach(cleanup);

  it('lists the articles of the page\'s language: title, date, body lines and a link to the whole article', async () => {
    const { view, calls } = await renderScreen('announcements', {
      signedIn: MANAGER,
      routes: {
        [ARTICLES]: () =>
          jsonResponse(200, {
            articles: [
              { id: 2, title: 'Support over the holidays', published_at: '2025-12-01T00:00:00.000Z', body: 'Line one\nLine two', url: 'https://news.example.com/2' },
              { id: 1, title: 'The portal has been renewed', published_at: '2025-08-01T00:00:00.000Z', body: 'New design.', url: null },
            ],
          }),
      },
    });
    const list = await view.findByRole('list', { name: 'Announcement articles' });
    expect(calls('GET', '/api/v2/announcements/articles')[0]!.args[0]).to.match(/\?lang=en$/);
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading', { level: 2 }).textContent)).to.deep.equal(['Support over the holidays', 'The portal has been renewed']);
    const time = items[0]!.querySelector('time')!;
    expect(time.getAttribute('datetime')).to.equal('2025-12-01T00:00:00.000Z');
    expect(time.textContent).to.match(/^2025-1[12]-\d\d$/);
    expect(within(items[0]!).getByText('Line one')).to.exist;
    expect(within(items[0]!).getByText('Line two')).to.exist;
    const more = within(items[0]!).getByRole('link', { name: 'Read more: Support over the holidays' });
    expect(more.getAttribute('href')).to.equal('https://news.example.com/2');
    expect(more.getAttribute('target')).to.equal('_blank');
    expect(within(items[1]!).queryByRole('link')).to.equal(null);
  });

  it('says so when there is no article', async () => {
    const { view } = await renderScreen('announcements', { routes: { [ARTICLES]: () => jsonResponse(200, { articles: [] }) } });
    await waitFor(() => view.getByText('There are no announcements.'));
    expect(view.queryByRole('list')).to.equal(null);
  });
});
