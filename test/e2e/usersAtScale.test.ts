/**
 * The Users page at a large customer's size (issue 19), in chromium against a portal whose demo data has 10,000 more
 * learners of G0000001 (DEMO_LEARNERS): the virtualised list, read a page at a time as it scrolls (issue 27), keeps at
 * most 100 rows in the DOM and still reaches the last learner; the whole downloaded file goes through preview and
 * bulk update with one nameId changed.
 */
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { newPage, useE2E } from './support/portal.js';
import { signInAsManagerAt } from './support/signin.js';

const LEARNERS = 10_000;
const MAX_ROWS_IN_DOM = 100;

describe('Users with 10,000 learners: the virtualised list, and the whole file through preview and bulk update (issue 19)', function () {
  this.timeout(300_000);
  const e2e = useE2E({ DEMO_LEARNERS: String(LEARNERS) });
  const errors: string[] = [];
  let page: Page;
  before(async () => {
    page = await newPage(e2e.browser, errors);
    await signInAsManagerAt(page, e2e.portal.url, '/users', 'G0000001');
  });
  after(() => page.context().close());
  afterEach(() => expect(errors.filter((error) => !/status of 401/.test(error)), 'errors logged by the page').to.deep.equal([]));

  const rowsInDom = (name: string) => page.getByRole('table', { name }).locator('tbody tr[aria-rowindex]').count();

  it('reads the list 1,000 at a time as it scrolls (count unknown meanwhile), with at most 100 rows in the DOM (axe-clean), to the last learner', async () => {
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getAttribute('aria-rowcount'), 'pages remain: the count is not known yet').to.equal('-1');
    expect(await rowsInDom('Users')).to.be.within(1, MAX_ROWS_IN_DOM);
    await expectAccessible(page);
    // the scroll container to its end, again as each page comes in, until the last page is read
    await page.getByRole('region', { name: 'Users' }).evaluate(async (container) => {
      const list = container.querySelector('table')!;
      for (let height = 0; list.getAttribute('aria-rowcount') === '-1'; ) {
        if (container.scrollHeight > height) {
          height = container.scrollHeight;
          container.scrollTop = height;
        }
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      container.scrollTop = container.scrollHeight;
    });
    const count = Number(await table.getAttribute('aria-rowcount'));
    expect(count, 'the header row and every learner').to.be.greaterThan(LEARNERS);
    await table.getByText('learner10000@example.com').waitFor();
    expect(await table.getByRole('row').last().getAttribute('aria-rowindex')).to.equal(String(count));
    expect(await rowsInDom('Users')).to.be.within(1, MAX_ROWS_IN_DOM);
  });

  it('downloads all 10,000 learners, previews the whole file with one nameId changed, and bulk-updates it', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV download' }).click()]);
    const csv = (await readFile((await download.path())!)).toString('utf8');
    expect(csv.trimEnd().split('\r\n').length, 'the header and every learner').to.be.greaterThan(LEARNERS);
    const edited = csv.replace(/\bN9999\b/, 'SCALE9999');
    expect(edited).to.not.equal(csv);

    await page.locator('input[type="file"]').setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from(edited) });
    const preview = page.getByRole('table', { name: 'Users in the uploaded CSV' });
    await preview.getByRole('row').nth(1).waitFor();
    expect(Number(await preview.getAttribute('aria-rowcount'))).to.be.greaterThan(LEARNERS);
    expect(await rowsInDom('Users in the uploaded CSV')).to.be.within(1, MAX_ROWS_IN_DOM);

    await page.getByRole('button', { name: 'Bulk update' }).click();
    await page.getByText('The users have been updated.').waitFor();
    await page.getByRole('separator', { name: 'preview' }).waitFor({ state: 'detached' });
    const [again] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV download' }).click()]);
    const after = (await readFile((await again.path())!)).toString('utf8');
    expect(after).to.match(/learner9999@example\.com,.*\bSCALE9999\b/);
    expect(after.split('SCALE').length - 1, 'only the edited learner changed').to.equal(1);
  });
});
