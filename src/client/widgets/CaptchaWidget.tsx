/**
 * 'Captcha' (SPEC 2.4, 2.5, §5 Captcha): ALTCHA's proof-of-work widget on the form's capyAnswer field. When the puzzle
 * is solved it fills capyAnswer (the widget's payload) and the challenge key field beside it (ui:options `keyField`,
 * default capyChallengekey) through the form context; an expired or failed puzzle empties both. When the form's value
 * is emptied from outside (a refused request: a solution works once), the widget starts over.
 *
 * The widget script loads on first use (a chunk of its own). If it cannot load, or the challenge cannot be fetched,
 * the help link (ui:options `helpLink`, a locale key, default links.captchaHelp) is shown.
 * An unsolved captcha fails the field's schema (minLength 1 → captcha.required: 'Please complete the puzzle.').
 */
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetProps } from '@rjsf/utils';
import { isWidgetFormContext } from './formContext.js';

/** Where the widget fetches its challenge (the server's GET /api/v2/captcha/challenge). */
export const CAPTCHA_CHALLENGE_URL = '/api/v2/captcha/challenge';

export interface AltchaModule {
  setWidgetStrings(language: string, strings: Record<string, string>): void;
}

/** The widget's element as far as this component uses it. */
export interface AltchaElement extends HTMLElement {
  configure?(options: Record<string, unknown>): Promise<void> | void;
  reset?(): void;
  getState?(): string;
}

let loadAltcha: () => Promise<AltchaModule> = () => import(/* webpackChunkName: "captcha" */ './captcha/altcha.js');

/** Tests replace the loader (jsdom runs no web workers). */
export function setAltchaLoader(loader: () => Promise<AltchaModule>): void {
  loadAltcha = loader;
}

function payloadChallengeId(payload: string): string | undefined {
  try {
    const decoded = JSON.parse(atob(payload)) as { challenge?: { parameters?: { data?: { challengeId?: unknown } } } };
    const id = decoded.challenge?.parameters?.data?.challengeId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

export function CaptchaWidget(props: WidgetProps): ReactElement {
  const { id, name, value, options, registry } = props;
  const { t, i18n } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const element = useRef<AltchaElement | null>(null);
  const [failed, setFailed] = useState(false);
  const formContext: unknown = registry.formContext;
  const context = isWidgetFormContext(formContext) ? formContext : undefined;
  const keyField = typeof options.keyField === 'string' ? options.keyField : 'capyChallengekey';
  const helpLink = typeof options.helpLink === 'string' ? options.helpLink : 'links.captchaHelp';
  const language = i18n.language;

  // the latest values for the element's event listener, which is added once
  const latest = useRef({ context, keyField, name, onChange: props.onChange });
  latest.current = { context, keyField, name, onChange: props.onChange };

  useEffect(() => {
    let active = true;
    const strings = t('captcha.widget', { returnObjects: true }) as Record<string, string>;
    const onStateChange = (event: Event) => {
      const { state, payload } = ((event as CustomEvent).detail ?? {}) as { state?: string; payload?: string };
      const current = latest.current;
      const set = (answer: string, key: string) =>
        current.context?.setFormValues ? current.context.setFormValues({ [current.name]: answer, [current.keyField]: key }) : current.onChange(answer);
      if (state === 'verified' && payload) set(payload, payloadChallengeId(payload) ?? '');
      else if (state === 'expired' || state === 'error') set('', '');
      setFailed(state === 'error');
    };
    loadAltcha().then(
      (module) => {
        if (!active || !container.current) return;
        module.setWidgetStrings(language, strings);
        const widget = document.createElement('altcha-widget') as AltchaElement;
        widget.setAttribute('challenge', CAPTCHA_CHALLENGE_URL);
        widget.setAttribute('language', language);
        widget.setAttribute('name', `${id}__payload`);
        widget.setAttribute('type', 'checkbox');
        widget.setAttribute('configuration', JSON.stringify({ hideFooter: true, hideLogo: false, validationMessage: strings.verificationRequired }));
        widget.addEventListener('statechange', onStateChange);
        container.current.replaceChildren(widget);
        element.current = widget;
      },
      () => active && setFailed(true),
    );
    return () => {
      active = false;
      element.current?.removeEventListener('statechange', onStateChange);
      element.current?.remove();
      element.current = null;
    };
    // a new language needs a new widget; the words come with it (the other values are read through `latest`)
  }, [language, id]);

  // emptied from outside (a refused request): the solution is spent, start over
  useEffect(() => {
    const widget = element.current;
    if ((value === undefined || value === '') && widget?.getState?.() === 'verified') widget.reset?.();
  }, [value]);

  return (
    <div className="captcha">
      <div className="captcha__widget" ref={container} id={id} />
      <p className="captcha__description" id={`${id}__description`}>
        {t('captcha.description')}
      </p>
      {failed && (
        <p className="captcha__help" role="alert">
          {t('captcha.loadFailed')}{' '}
          <a href={t(helpLink)} target="_blank" rel="noreferrer">
            {t('captcha.help')}
          </a>
        </p>
      )}
    </div>
  );
}
