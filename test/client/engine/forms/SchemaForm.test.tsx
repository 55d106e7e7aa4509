import 'global-jsdom/register';
import { expect } from 'chai';
import sinon from 'sinon';
import { useState } from 'react';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { englishI18n } from '../../support/i18n.js';
import { SchemaForm, type FormData } from '../../../../src/client/engine/forms/SchemaForm.js';
import { generate } from '../../../../scripts/generate.js';
import type { FieldError } from '../../../../src/common/errorCodes.js';


function RegistrationForm(props: { onSubmit: (data: FormData) => void; serverErrors?: FieldError[]; initial?: FormData; idPrefix?: string; validateAtOnce?: boolean }) {
  const [data, setData] = useState<FormData>(props.initial ?? {});
  return (
    <SchemaForm
      schemaName="registration-request"
      formData={data}
      onChange={setData}
      onSubmit={props.onSubmit}
      submitting={false}
      submitLabel="registration.confirm"
      serverErrors={props.serverErrors}
      idPrefix={props.idPrefix}
      validateAtOnce={props.validateAtOnce}
    />
  );
}

const valid: FormData = {
  corporationName: 'Demo Corporation',
  departments: 'HR',
  personInCharge: 'Taro Yamada',
  phoneNumber: '03-1234-5678',
  email: 'taro@example.com',
  zipCode: '102-0083',
  address: 'Chiyoda-ku, Tokyo',
  scaleOfEmployees: '300to499',
  capyChallengekey: 'challenge-id',
  capyAnswer: 'solved-payload',
};

describe('SchemaForm (RJSF with the project templates and precompiled validators)', () => {
  let i18n: Awaited<ReturnType<typeof englishI18n>>;
  before(async () => {
    generate();
    i18n = await englishI18n();
  });
  afterEach(cleanup);

  const show = (ui: React.ReactElement) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

  it("draws the first three fields in the form's first paint and the others after it, a busy placeholder in their place until then", async () => {
    const frames: FrameRequestCallback[] = [];
    const own = globalThis.requestAnimationFrame;
    globalThis.requestAnimationFrame = (frame) => frames.push(frame);
    try {
      const screen = show(<RegistrationForm onSubmit={() => {}} />);
      await screen.findByText('Company name');
      const shown = () => ['corporationName', 'departments', 'position', 'personInCharge', 'email'].filter((field) => screen.container.querySelector(`#root_${field}`));
      expect(shown()).to.deep.equal(['corporationName', 'departments', 'position']);
      expect(screen.container.querySelector('fieldset .form-placeholder[aria-busy="true"]')).to.exist;
      expect(screen.getByRole('button', { name: 'Confirm' })).to.exist;
      frames.splice(0).forEach((frame) => frame(0));
      await waitFor(() => expect(shown()).to.have.length(5));
      expect(screen.container.querySelector('.form-placeholder')).to.equal(null);
    } finally {
      globalThis.requestAnimationFrame = own;
    }
  });

  it('labels each field from locales and marks required ones with *', async () => {
    const screen = show(<RegistrationForm onSubmit={() => {}} />);
    const label = await screen.findByText('Company name');
    expect(label.closest('label')?.textContent).to.equal('Company name*');
    expect(screen.getByText('Position').closest('label')?.textContent).to.equal('Position');
    expect(screen.getByText('* Required')).to.exist;
  });

  it("names a required field by its label alone (the star is hidden from assistive technology, the input says it is required)", async () => {
    const screen = show(<RegistrationForm onSubmit={() => {}} />);
    const input = await screen.findByRole('textbox', { name: 'Company name' });
    expect((input as HTMLInputElement).required).to.equal(true);
    const star = screen.getByText('Company name').closest('label')!.querySelector('.field__required')!;
    expect([star.textContent, star.getAttribute('aria-hidden'), star.hasAttribute('aria-label')]).to.deep.equal(['*', 'true', false]);
    expect((screen.getByRole('textbox', { name: 'Position' }) as HTMLInputElement).required).to.equal(false);
  });

  it('shows the required message under each empty required field and does not submit', async () => {
    const onSubmit = sinon.spy();
    const screen = show(<RegistrationForm onSubmit={onSubmit} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    // the eight required fields and the unsolved captcha
    // by field, so a failure names the one missing
    const inError = () => [...document.querySelectorAll('.field__errors')].map((errors) => errors.closest('.field')?.id?.replace(/^root_|__field$/g, ''));
    await waitFor(() => expect(inError()).to.deep.equal(['corporationName', 'departments', 'personInCharge', 'phoneNumber', 'email', 'zipCode', 'address', 'scaleOfEmployees', 'capyAnswer']));
    const companyField = document.getElementById('root_corporationName__field')!;
    expect(companyField.querySelector('.field__errors')?.textContent).to.equal('This field is required.');
    expect(screen.getByRole('alert').textContent).to.contain('Company name: This field is required.');
    expect(onSubmit.called).to.equal(false);
  });

  it('validateAtOnce shows the messages from the first render, without a submit; idPrefix names the fields', async () => {
    const screen = show(<RegistrationForm onSubmit={() => {}} idPrefix="gallery" validateAtOnce initial={{ ...valid, email: 'not-an-address' }} />);
    await waitFor(() =>
      expect(document.getElementById('gallery_email__field')?.querySelector('.field__errors')?.textContent).to.equal('Please enter a valid email address.'),
    );
    expect(document.getElementById('gallery_email')?.tagName).to.equal('INPUT');
    expect(screen.getByText('Email').closest('label')?.getAttribute('for')).to.equal('gallery_email');
    expect(document.activeElement).to.equal(document.body);
  });

  it('uses the rule’s own message from the schema for an invalid e-mail address', async () => {
    const screen = show(<RegistrationForm onSubmit={() => {}} initial={{ ...valid, email: 'not-an-address' }} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(document.getElementById('root_email__field')!.querySelector('.field__errors')?.textContent).to.equal(
        'Please enter a valid email address.',
      ),
    );
  });

  it('submits trimmed values when the data is valid', async () => {
    const onSubmit = sinon.spy();
    const screen = show(<RegistrationForm onSubmit={onSubmit} initial={{ ...valid, corporationName: '  Demo Corporation  ' }} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onSubmit.calledOnce).to.equal(true));
    expect(onSubmit.firstCall.args[0].corporationName).to.equal('Demo Corporation');
  });

  it('shows the server’s 422 field errors on their fields', async () => {
    show(
      <RegistrationForm
        onSubmit={() => {}}
        initial={valid}
        serverErrors={[{ field: 'phoneNumber', code: 'tooLong', meta: { length: 15 } }]}
      />,
    );
    await waitFor(() =>
      expect(document.getElementById('root_phoneNumber__field')?.querySelector('.field__errors')?.textContent).to.equal('Please enter 15 characters or less.'),
    );
  });

  it('keeps submit disabled until the data changes when the form asks for it', async () => {
    i18n.addResource('en', 'translation', 'test.save', 'Save');
    const screen = show(
      <SchemaForm schemaName="registration-request" formData={valid} initialData={valid} disabledUntilChanged submitting={false} submitLabel="test.save" onChange={() => {}} onSubmit={() => {}} />,
    );
    expect((await screen.findByRole('button', { name: 'Save' })).hasAttribute('disabled')).to.equal(true);
    screen.rerender(
      <I18nextProvider i18n={i18n}>
        <SchemaForm schemaName="registration-request" formData={{ ...valid, departments: 'Sales' }} initialData={valid} disabledUntilChanged submitting={false} submitLabel="test.save" onChange={() => {}} onSubmit={() => {}} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).to.equal(false);
  });

  it('disables submit while submitting', async () => {
    const screen = show(<SchemaForm schemaName="registration-request" formData={valid} submitting submitLabel="registration.confirm" onChange={() => {}} onSubmit={() => {}} />);
    expect((await screen.findByRole('button', { name: 'Sending…' })).hasAttribute('disabled')).to.equal(true);
  });
});
