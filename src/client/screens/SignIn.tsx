/**
 * /signin (SPEC 2.3): no UI of its own — it asks the auth feature to send the browser to the provider, with the
 * return path (returnTo, set by the guards), prompt, glopla_id and the page language. With error_message_key (e.g.
 * the provider found no affiliation) it shows that message and a 'Sign in again' button instead.
 */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation } from 'react-router-dom';
import { AUTHORIZATION_PARAM } from '../../common/identity.js';
import { safeReturnPath, selectSigninStatus, signinRequested, type SigninOptions } from '../features/auth/index.js';

const WORD = /^[a-z][a-z_ ]{0,63}$/;
const GLOPLA_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Pure: the sign-in options a /signin query asks for. */
export function signinOptionsFrom(search: string, language: string): SigninOptions & { errorMessageKey?: string } {
  const query = new URLSearchParams(search);
  const valid = (value: string | null, pattern: RegExp) => (value !== null && pattern.test(value) ? value : undefined);
  return {
    returnTo: safeReturnPath(query.get('returnTo')),
    prompt: valid(query.get('prompt'), WORD),
    gloplaId: valid(query.get(AUTHORIZATION_PARAM.gloplaId), GLOPLA_ID),
    errorMessageKey: valid(query.get(AUTHORIZATION_PARAM.errorMessageKey), WORD),
    language,
  };
}

export default function SignIn(): ReactElement {
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const { search } = useLocation();
  const status = useSelector(selectSigninStatus);
  const { errorMessageKey, ...options } = signinOptionsFrom(search, i18n.language);

  useEffect(() => {
    if (!errorMessageKey) dispatch(signinRequested(options));
    // the query is the whole input: options are derived from it
  }, [dispatch, search]);

  if (errorMessageKey) {
    return (
      <section className="signin">
        <p className="error-text" role="alert">
          {t(`auth.signin.errors.${errorMessageKey}`, { defaultValue: t('auth.signin.errors.unknown') })}
        </p>
        <button
          type="button"
          className="button button--primary"
          // prompt=login: the provider asks for the password again, so another account can be used
          onClick={() => dispatch(signinRequested({ ...options, prompt: 'login', errorMessageKey }))}
        >
          {t('auth.signin.again')}
        </button>
      </section>
    );
  }
  if (status === 'failed') {
    return (
      <section className="signin">
        <p className="error-text" role="alert">
          {t('auth.signin.failed')}
        </p>
        <button type="button" className="button button--primary" onClick={() => dispatch(signinRequested(options))}>
          {t('auth.signin.retry')}
        </button>
      </section>
    );
  }
  return (
    <p className="signin signin--redirecting" role="status">
      {t('auth.signin.redirecting')}
    </p>
  );
}

