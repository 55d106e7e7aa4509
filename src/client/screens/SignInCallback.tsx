/** /auth/openid/callback (SPEC 2.3): a loader while the sign-in completes; on failure the error page with a Home button. */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation } from 'react-router-dom';
import { callbackSaga } from '../features/auth/lazy.js';
import { callbackOpened, selectCallbackStatus } from '../features/auth/index.js';
import { startLazySaga } from '../state/lazySagas.js';
import { Loader } from '../engine/Loader.js';

export default function SignInCallback(): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const { search } = useLocation();
  const status = useSelector(selectCallbackStatus);
  startLazySaga(callbackSaga); // comes with this page; idempotent, before the effect below dispatches

  useEffect(() => {
    dispatch(callbackOpened({ search }));
    // once per visit: the code can be exchanged only once, so the search is read at mount only
  }, [dispatch]);

  if (status !== 'failed') return <Loader />;
  return (
    <section className="callback-error" aria-labelledby="callback-error-title">
      <h2 id="callback-error-title">{t('auth.callback.errorTitle')}</h2>
      <p className="error-text" role="alert">
        {t('auth.callback.failed')}
      </p>
      <Link className="button" to="/">
        {t('common.home')}
      </Link>
    </section>
  );
}
