/**
 * No lost update (issue 28) in chromium: manager@ and manager2@, each signed in in a browser of their own, edit the
 * same contact of G0000001 in its modal. The second save, made on the version both opened, is refused: the dialog
 * keeps what was typed, says who changed the contact and when, shows the two versions side by side, and 'Save mine
 * anyway' saves the dialog's version on the latest one, knowingly. Then both open the same application (A000000101)
 * in the edit wizard: the later Next, checked on the version both opened, is refused the same way.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newPage, useE2E } from './support/portal.js';
import { MANAGER, signInAt } from './support/signin.js';

describe('Two managers editing the same contact: neither silently wins (issue 28)', function () {
  this.timeout(180_000);
  const e2e = useE2E();
  const errors: string[] = [];
  let first: Page;
  let second: Page;
  before(async () => {
    first = await newPage(e2e.browser, errors);
    second = await newPage(e2e.browser, errors);
    await signInAt(first, e2e.portal.url, '/contacts', { email: MANAGER, gloplaId: 'G0000001', choose: true });
    await signInAt(second, e2e.portal.url, '/contacts', { email: 'manager2@example.com', gloplaId: 'G0000001', choose: false });
  });
  after(async () => {
    await first.context().close();
    await second.context().close();
  });
  // the refused save is a 412 the browser logs as a failed resource: the refusal this test is about
  afterEach(() => expect(errors.filter((error) => !/status of 412/.test(error)), 'errors logged by the pages').to.deep.equal([]));

  /** The first contact's Edit dialog, opened on the version the list shows. */
  async function openEdit(page: Page) {
    await page.getByRole('button', { name: /^Edit / }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Edit contact' });
    await dialog.getByLabel(/^Department/).waitFor();
    return dialog;
  }

  it("refuses the later save made on the old version, shows both versions side by side, and 'Save mine anyway' saves mine on the latest", async () => {
    // both read the contacts now (a retry starts from what the last attempt saved)
    for (const page of [first, second]) await page.reload();
    const mine = await openEdit(first);
    const theirs = await openEdit(second);
    const phoneSeen = await mine.getByLabel(/^Phone number/).inputValue();
    await theirs.getByLabel(/^Phone number/).fill('03-5555-0101');
    await theirs.getByRole('button', { name: 'Save' }).click();
    await second.getByText('The contact has been saved.').waitFor();

    await mine.getByLabel(/^Department/).fill('人事部 第二課');
    await mine.getByRole('button', { name: 'Save' }).click();
    const alert = mine.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.match(/^This was changed by 美咲 高橋 at .+ while you were editing\.$/);
    expect(await mine.getByLabel(/^Department/).inputValue(), 'what was typed stays').to.equal('人事部 第二課');

    await mine.getByRole('button', { name: 'Show the latest' }).click();
    const compared = mine.getByRole('table', { name: 'Your entry and the saved version' });
    await compared.waitFor();
    const phone = compared.getByRole('row', { name: /Phone number/ });
    expect(await phone.locator('td').allTextContents(), 'mine, then the saved one').to.deep.equal([phoneSeen, '03-5555-0101']);
    expect(await compared.getByRole('row', { name: /Department/ }).locator('td').first().textContent()).to.equal('人事部 第二課');

    await mine.getByRole('button', { name: 'Save mine anyway' }).click();
    await first.getByText('The contact has been saved.').waitFor();
    await mine.waitFor({ state: 'detached' });
    // mine, knowingly over theirs: everything as this dialog had it
    const table = first.getByRole('table', { name: 'Contacts of the organization' });
    await table.getByText('人事部 第二課').waitFor();
    await table.getByText(phoneSeen).waitFor();
    expect(await table.getByText('03-5555-0101').count()).to.equal(0);
  });

  it("refuses the later change of the same application in the edit wizard, shows the saved billing note beside mine, and 'Save mine anyway' changes it on the latest", async () => {
    const editPath = '/subscription/A000000101/edit';
    for (const page of [first, second]) {
      await page.goto(`${e2e.portal.url}${editPath}`);
      await page.getByRole('heading', { level: 1, name: 'Change application' }).waitFor();
      await page.getByLabel(/^Billing note/).waitFor();
    }
    const noteSeen = await first.getByLabel(/^Billing note/).inputValue();
    await second.getByLabel(/^Billing note/).fill('PO by the second manager');
    await second.getByRole('button', { name: 'Next' }).click();
    await second.waitForURL(`${e2e.portal.url}${editPath}/confirm`);
    await second.getByRole('button', { name: 'change with agreement' }).click();
    await second.waitForURL(`${e2e.portal.url}${editPath}/done`);

    await first.getByLabel(/^Billing note/).fill('PO by the first manager');
    await first.getByRole('button', { name: 'Next' }).click();
    const alert = first.getByRole('alert').filter({ hasText: 'while you were editing' });
    await alert.waitFor();
    expect(await alert.textContent()).to.match(/^This was changed by 美咲 高橋 at .+ while you were editing\.$/);
    expect(first.url(), 'still the input step').to.equal(`${e2e.portal.url}${editPath}`);
    expect(await first.getByLabel(/^Billing note/).inputValue(), 'what was typed stays').to.equal('PO by the first manager');

    await first.getByRole('button', { name: 'Show the latest' }).click();
    const compared = first.getByRole('table', { name: 'Your entry and the saved version' });
    const note = compared.getByRole('row', { name: /Billing note/ });
    await note.waitFor();
    expect(await note.locator('td').allTextContents(), 'mine, then the saved one').to.deep.equal(['PO by the first manager', 'PO by the second manager']);
    expect(noteSeen).to.not.equal('PO by the second manager');

    await first.getByRole('button', { name: 'Save mine anyway' }).click();
    await first.waitForURL(`${e2e.portal.url}${editPath}/confirm`);
    await first.getByRole('button', { name: 'change with agreement' }).click();
    await first.waitForURL(`${e2e.portal.url}${editPath}/done`);
    await first.goto(`${e2e.portal.url}/subscription/A000000101`);
    await first.getByText('PO by the first manager').waitFor();
  });
});
