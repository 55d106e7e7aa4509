import 'global-jsdom/register';
import { expect } from 'chai';
import { useState } from 'react';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { englishI18n } from '../support/i18n.js';
import { SchemaForm, type FormData } from '../../../src/client/engine/forms/SchemaForm.js';
import { generate } from '../../../scripts/generate.js';


const uiSchema = {
  'ui:order': ['current', 'new'],
  current: { 'ui:widget': 'PasswordInput' },
  new: { 'ui:widget': 'PasswordStrength', 'ui:options': { helpLink: 'links.passwordHelp', helpLabel: 'password.help' } },
};

function PasswordForm({ onSubmit }: { onSubmit: (data: FormData) => void }) {
  const [data, setData] = useState<FormData>({});
  return <SchemaForm schemaName="password-change" uiSchema={uiSchema} formData={data} onChange={setData} onSubmit={onSubmit} submitting={false} submitLabel="account.password.submit" />;
}

describe('PasswordStrength / PasswordInput widgets in a form (SPEC 2.6, §5)', () => {
  let i18n: Awaited<ReturnType<typeof englishI18n>>;
  before(async () => {
    generate();
    i18n = await englishI18n();
  });
  afterEach(cleanup);

  const show = () => render(<I18nextProvider i18n={i18n}><PasswordForm onSubmit={() => {}} /></I18nextProvider>);
  const submit = (screen: ReturnType<typeof show>) => screen.getByRole('button', { name: 'Change password' }) as HTMLButtonElement;

  it('hides both passwords and shows them with the toggle', async () => {
    const screen = show();
    const current = (await screen.findByLabelText(/Current password/)) as HTMLInputElement;
    expect(current.type).to.equal('password');
    const [toggle] = screen.getAllByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    fireEvent.click(toggle);
    expect(current.type).to.equal('text');
    expect(screen.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).to.equal('true');
  });

  it('submit stays disabled until the new password scores 2 or more; a policy failure shows as Weak', async () => {
    const screen = show();
    const current = (await screen.findByLabelText(/Current password/)) as HTMLInputElement;
    const next = screen.getByLabelText(/New password/) as HTMLInputElement;
    fireEvent.change(current, { target: { value: 'DemoPassw0rd!' } });
    expect(submit(screen).disabled).to.equal(true);

    await waitFor(() => expect(screen.getByText(/Password strength: /)).to.exist, { timeout: 15000 });
    fireEvent.change(next, { target: { value: 'Password1' } });
    await waitFor(() => expect(screen.getByText(/Password strength: (Very weak|Weak)/)).to.exist);
    expect(submit(screen).disabled).to.equal(true);

    // long and unguessable, but no digit and no uppercase letter: forced to 1
    fireEvent.change(next, { target: { value: 'correct horse battery staple' } });
    await waitFor(() => expect(screen.getByText('Password strength: Weak')).to.exist);
    expect(submit(screen).disabled).to.equal(true);

    fireEvent.change(next, { target: { value: 'NewPassw0rd!2' } });
    await waitFor(() => expect(screen.getByText(/Password strength: (Fair|Strong|Very strong)/)).to.exist);
    await waitFor(() => expect(submit(screen).disabled).to.equal(false));
    expect(screen.getByRole('link', { name: 'About passwords' }).getAttribute('href')).to.equal('https://www.example.com/faq/password/');
  });

  it('the same new password as the current one is refused with its message', async () => {
    const screen = show();
    const current = (await screen.findByLabelText(/Current password/)) as HTMLInputElement;
    fireEvent.change(current, { target: { value: 'NewPassw0rd!2' } });
    fireEvent.change(screen.getByLabelText(/New password/), { target: { value: 'NewPassw0rd!2' } });
    await waitFor(() => expect(submit(screen).disabled).to.equal(false), { timeout: 15000 });
    fireEvent.click(submit(screen));
    await waitFor(() => expect(screen.getAllByText(/Please choose a new password/).length).to.be.greaterThan(0));
  });
});
