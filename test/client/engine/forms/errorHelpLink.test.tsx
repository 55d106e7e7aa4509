import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, render, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { englishI18n } from '../../support/i18n.js';
import { SchemaForm } from '../../../../src/client/engine/forms/SchemaForm.js';
import { generate } from '../../../../scripts/generate.js';

describe("engine/forms: a server message's help link (SPEC §8: maximumNumberUsers with its help link)", () => {
  let i18n: Awaited<ReturnType<typeof englishI18n>>;
  before(async () => {
    generate();
    i18n = await englishI18n();
  });
  afterEach(cleanup);

  const show = (uiSchema: Record<string, unknown>) =>
    render(
      <I18nextProvider i18n={i18n}>
        <SchemaForm
          schemaName="subscription"
          uiSchema={uiSchema}
          formData={{}}
          onChange={() => {}}
          onSubmit={() => {}}
          submitting={false}
          submitLabel="common.next"
          serverErrors={[{ field: 'users', code: 'maximumNumberUsers.hodai', meta: { number: 1000 } }]}
          serverMessages="subscriptions.errors"
        />
      </I18nextProvider>,
    );

  it('links the help part of the field’s message to the field’s errorHelpLink page, and leaves the error list plain words', async () => {
    const view = show({ users: { 'ui:options': { errorHelpLink: 'links.learnerLimitHelp' } } });
    const message = await view.findByText(/The number of users exceeds the maximum \(1000\)\./, { selector: '.field__errors li' });
    const link = within(message).getByRole('link', { name: 'About the maximum number of users' });
    expect(link.getAttribute('href')).to.equal(i18n.t('links.learnerLimitHelp'));
    const list = view.container.querySelector('.form__error-list')!;
    expect(list.textContent).to.contain('About the maximum number of users').and.not.contain('<help>');
  });

  it('shows the words without a link where the field names no help page', async () => {
    const view = show({});
    const message = await view.findByText(/The number of users exceeds the maximum \(1000\)\./, { selector: '.field__errors li' });
    expect(within(message).queryByRole('link')).to.equal(null);
    expect(message.textContent).to.not.contain('<help>');
  });
});
