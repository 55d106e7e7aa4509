/**
 * Password input with a show/hide toggle (SPEC 2.5, 2.6) and, as 'PasswordStrength', a strength meter (SPEC §5):
 * zxcvbn's score 0–4, forced to 1 when the policy of the field's schema fails; while the score is below 2 (or the
 * dictionaries are still loading) the widget blocks the form's submit through the form context.
 * ui:options: `helpLink` and `helpLabel` (locale keys of a link to password help).
 */
import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { isWidgetFormContext } from './formContext.js';
import { MIN_PASSWORD_SCORE, policyFromSchema, strengthScore, type StrengthScore } from '../../common/passwordPolicy.js';

type Estimate = (password: string, userInputs?: string[]) => number;

/** The dictionaries, loaded on first use and shared by every meter. */
let estimator: Promise<Estimate> | undefined;
function loadEstimator(): Promise<Estimate> {
  estimator ??= import(/* webpackChunkName: "password-strength" */ '../../common/passwordStrength.js').then((module) => module.estimateScore);
  return estimator;
}

function useEstimator(enabled: boolean): Estimate | null {
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  useEffect(() => {
    if (!enabled) return undefined;
    let active = true;
    void loadEstimator().then((loaded) => active && setEstimate(() => loaded));
    return () => {
      active = false;
    };
  }, [enabled]);
  return estimate;
}

function PasswordField(props: WidgetProps & { meter: boolean }): ReactElement {
  const { id, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, options, schema, registry, meter, rawErrors } = props;
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const estimate = useEstimator(meter);
  const text = typeof value === 'string' ? value : '';
  const score: StrengthScore | null = estimate ? strengthScore(estimate(text), text, policyFromSchema(schema)) : null;
  const blocked = meter && (score === null || score < MIN_PASSWORD_SCORE);
  const formContext: unknown = registry.formContext;
  const context = isWidgetFormContext(formContext) ? formContext : undefined;

  useEffect(() => {
    context?.setSubmitBlocked(id, blocked);
  }, [context, id, blocked]);
  useEffect(() => () => context?.setSubmitBlocked(id, false), [context, id]);

  const helpLink = typeof options.helpLink === 'string' ? options.helpLink : undefined;
  const helpLabel = typeof options.helpLabel === 'string' ? options.helpLabel : 'password.help';
  return (
    <div className="password">
      <div className="password__input">
        <input
          id={id}
          name={id}
          type={visible ? 'text' : 'password'}
          className="form-control"
          value={text}
          required={required}
          disabled={disabled || readonly}
          autoFocus={autofocus}
          autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : meter ? 'new-password' : 'current-password'}
          aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
          aria-describedby={ariaDescribedByIds(id, meter)}
          onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
          onBlur={(event) => onBlur(id, event.target.value)}
          onFocus={(event) => onFocus(id, event.target.value)}
        />
        <button
          type="button"
          className="password__toggle"
          aria-controls={id}
          aria-pressed={visible}
          onClick={() => setVisible(!visible)}
        >
          {visible ? t('password.hide') : t('password.show')}
        </button>
      </div>
      {meter && (
        <div className="password__strength" id={`${id}__examples`}>
          <div className={`strength strength--${score ?? 'unknown'}`} aria-hidden="true">
            {[0, 1, 2, 3].map((segment) => (
              <span key={segment} className={score !== null && score > segment ? 'strength__bar strength__bar--on' : 'strength__bar'} />
            ))}
          </div>
          <p className="password__score" aria-live="polite" data-score={score ?? ''}>
            {score === null ? t('password.strength.loading') : `${t('password.strength.label')}: ${t(`password.strength.${score}`)}`}
          </p>
          {helpLink && (
            <a href={t(helpLink)} target="_blank" rel="noreferrer">
              {t(helpLabel)}
            </a>
          )}
        </div>
      )}
    </div>
  );
}

/** 'PasswordInput': show/hide toggle only. */
export function PasswordInputWidget(props: WidgetProps): ReactElement {
  return <PasswordField {...props} meter={false} />;
}

/** 'PasswordStrength': show/hide toggle and strength meter; blocks submit below score 2. */
export function PasswordStrengthWidget(props: WidgetProps): ReactElement {
  return <PasswordField {...props} meter />;
}
