/**
 * A form's screen before its engine has arrived (engine/forms/FormFrame.tsx, issue 47): the steps as the form will show
 * them, and a busy placeholder about the form's size in its place.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { FormFrame, placeholderRows } from '../../../../src/client/engine/forms/FormFrame.js';
import { screenReady } from '../../../../src/client/engine/screen/screenModule.js';
import { englishI18n } from '../../support/i18n.js';

async function renderFrame(screenId: string, url: string) {
  const i18n = await englishI18n();
  const screen = await screenReady(i18n, screenId);
  const router = createMemoryRouter([{ path: screen.path, element: <FormFrame screen={screen} /> }], { initialEntries: [url] });
  return { screen, view: render(<I18nextProvider i18n={i18n}><RouterProvider router={router} /></I18nextProvider>) };
}

describe('engine/forms/FormFrame: the form’s steps and place before its engine (issue 47)', () => {
  afterEach(cleanup);

  it("the wizard's steps with the URL's step current, and a busy placeholder for its nine fields", async () => {
    const { screen, view } = await renderFrame('subscription-new', '/subscription/group/1/new');
    const steps = view.getAllByRole('listitem').map((item) => item.textContent);
    expect(steps).to.have.length(4);
    expect(view.getByText(steps[1]!).getAttribute('aria-current')).to.equal('step');
    const placeholder = view.getByRole('status');
    expect(placeholder.getAttribute('aria-busy')).to.equal('true');
    expect(placeholder.textContent).to.equal('Loading…');
    expect(placeholderRows(screen)).to.equal(9);
    expect(placeholder.style.getPropertyValue('--rows')).to.equal('9');
  });

  it('a form of one step shows no steps, and its placeholder stands for at least two rows', async () => {
    const { screen, view } = await renderFrame('passwordReset', '/password/reset');
    expect(view.queryByRole('list')).to.equal(null);
    expect(placeholderRows(screen)).to.equal(2);
  });
});
