import 'global-jsdom/register';
import { expect } from 'chai';
import sinon from 'sinon';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { englishI18n } from '../support/i18n.js';
import type { UiSchema } from '@rjsf/utils';
import { SchemaForm, type FormData } from '../../../src/client/engine/forms/SchemaForm.js';
import { setAltchaLoader, type AltchaModule } from '../../../src/client/widgets/CaptchaWidget.js';
import { loadScreens } from '../../../src/configuration/load.js';
import { generate } from '../../../scripts/generate.js';

/** Stands in for ALTCHA's web component (jsdom runs no workers): the test drives its state changes. */
class FakeAltcha extends window.HTMLElement {
  state = 'unverified';
  resets = 0;
  getState() {
    return this.state;
  }
  reset() {
    this.state = 'unverified';
    this.resets += 1;
  }
  emit(state: string, payload?: string) {
    this.state = state;
    this.dispatchEvent(new window.CustomEvent('statechange', { detail: { state, payload } }));
  }
}
// the element is created in the document of `window` (the component's), so its classes are used
if (!window.customElements.get('altcha-widget')) window.customElements.define('altcha-widget', FakeAltcha);

const payload = btoa(JSON.stringify({ challenge: { parameters: { data: { challengeId: 'challenge-7' } }, signature: 's' }, solution: { counter: 1 } }));


const screen = loadScreens().find((candidate) => candidate.id === 'activationStart')!;

function CaptchaForm({ onSubmit, control }: { onSubmit: (data: FormData) => void; control?: (set: (data: FormData) => void) => void }) {
  const [data, setData] = useState<FormData>({ email: 'pending@example.com' });
  control?.(setData);
  return (
    <SchemaForm
      schemaName={screen.form!.schema}
      uiSchema={screen.form!.uiSchema as UiSchema}
      formData={data}
      onChange={setData}
      onSubmit={onSubmit}
      submitting={false}
      submitLabel={screen.form!.submit.label}
    />
  );
}

describe('Captcha widget (SPEC §5 Captcha): ALTCHA on capyAnswer, filling capyChallengekey beside it', () => {
  let i18n: Awaited<ReturnType<typeof englishI18n>>;
  const strings = sinon.spy();
  before(async () => {
    generate();
    i18n = await englishI18n();
  });
  beforeEach(() => {
    strings.resetHistory();
    setAltchaLoader(async () => ({ setWidgetStrings: strings }) satisfies AltchaModule);
  });
  afterEach(cleanup);

  const show = (onSubmit: (data: FormData) => void = () => {}, control?: (set: (data: FormData) => void) => void) =>
    render(
      <I18nextProvider i18n={i18n}>
        <CaptchaForm onSubmit={onSubmit} control={control} />
      </I18nextProvider>,
    );

  const widget = async (view: ReturnType<typeof show>) => {
    await waitFor(() => expect(view.container.querySelector('altcha-widget')).not.to.equal(null));
    return view.container.querySelector('altcha-widget') as unknown as FakeAltcha;
  };

  it('creates the widget with the challenge URL and the page language, its words from locales/, and the description line', async () => {
    const view = show();
    const element = await widget(view);
    expect(element.getAttribute('challenge')).to.equal('/api/v2/captcha/challenge');
    expect(element.getAttribute('language')).to.equal('en');
    expect(strings.calledOnce).to.equal(true);
    expect(strings.firstCall.args[0]).to.equal('en');
    expect(strings.firstCall.args[1]).to.include({ label: 'I am not a robot', verified: 'Verified' });
    view.getByText(/your browser then solves a small puzzle/);
  });

  it('an unsolved puzzle: "Please complete the puzzle." and nothing is sent', async () => {
    const onSubmit = sinon.spy();
    const view = show(onSubmit);
    await widget(view);
    fireEvent.click(view.getByRole('button', { name: 'Register' }));
    await view.findAllByText('Please complete the puzzle.');
    expect(view.container.querySelector('#root_capyAnswer__field .field__errors')?.textContent).to.equal('Please complete the puzzle.');
    expect(onSubmit.called).to.equal(false);
  });

  it('a solved puzzle fills capyAnswer and capyChallengekey; the form is sent with both', async () => {
    const onSubmit = sinon.spy();
    const view = show(onSubmit);
    const element = await widget(view);
    act(() => element.emit('verified', payload));
    fireEvent.click(view.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(onSubmit.calledOnce).to.equal(true));
    expect(onSubmit.firstCall.args[0]).to.include({ email: 'pending@example.com', capyAnswer: payload, capyChallengekey: 'challenge-7' });
  });

  it('an expired puzzle empties both fields again', async () => {
    const onSubmit = sinon.spy();
    const view = show(onSubmit);
    const element = await widget(view);
    act(() => element.emit('verified', payload));
    act(() => element.emit('expired'));
    fireEvent.click(view.getByRole('button', { name: 'Register' }));
    await view.findAllByText('Please complete the puzzle.');
    expect(onSubmit.called).to.equal(false);
  });

  it('starts over when the form empties its value (a refused request: a solution works once)', async () => {
    let setData: (data: FormData) => void = () => {};
    const view = show(undefined, (set) => (setData = set));
    const element = await widget(view);
    act(() => element.emit('verified', payload));
    expect(element.resets).to.equal(0);
    act(() => setData({ email: 'pending@example.com', capyAnswer: '', capyChallengekey: '' }));
    await waitFor(() => expect(element.resets).to.equal(1));
  });

  it('when the widget cannot load, shows the help link', async () => {
    setAltchaLoader(() => Promise.reject(new Error('ChunkLoadError')));
    const view = show();
    await view.findByText(/The puzzle could not be loaded\./);
    expect(view.getByRole('link', { name: 'Help with the puzzle' }).getAttribute('href')).to.equal('https://www.example.com/faq/captcha/');
  });

  it('when the challenge cannot be fetched (error state), shows the help link', async () => {
    const view = show();
    const element = await widget(view);
    act(() => element.emit('error'));
    await view.findByRole('link', { name: 'Help with the puzzle' });
  });
});
