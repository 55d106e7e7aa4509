/** /signout (SPEC 2.3): no UI; triggers the logout. */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { logoutRequested } from '../features/auth/index.js';

export default function SignOut(): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  useEffect(() => {
    dispatch(logoutRequested());
  }, [dispatch]);
  return (
    <p className="signout" role="status">
      {t('auth.signout.progress')}
    </p>
  );
}
