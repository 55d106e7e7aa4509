/**
 * /auth/gateway (SPEC 2.3): no visible form. It hands its query to the gateway feature, whose saga signs out first
 * (glo=true), sends a signed-out visitor to sign in, or fetches the single-sign-on tokens and forwards the browser to
 * the partner product. A code screen: a full-page navigation to a computed external URL, with local storage read
 * once, is no block of the screen engine.
 */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useLocation } from 'react-router-dom';
import { gatewayOpened, gatewaySaga } from '../features/gateway/index.js';
import { startLazySaga } from '../state/lazySagas.js';

export default function Gateway(): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const { search } = useLocation();
  startLazySaga(gatewaySaga); // comes with this page's chunk; idempotent, before the effect below dispatches
  useEffect(() => {
    dispatch(gatewayOpened({ search }));
  }, [dispatch, search]);
  return (
    <p className="gateway" role="status">
      {t('gateway.progress')}
    </p>
  );
}
