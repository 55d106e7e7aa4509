/**
 * Link expired (/token/expired, SPEC 2.4): the expired warning and description of the flow in navigation state
 * (password reset when flow is passwordReset, else activation); the restart link goes to the start page of `from`
 * and is hidden when errorCode is already_activated (the account is active: sign in instead).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { SIGNIN_PATH } from '../state/constants.js';
import { ACTIVATION_START_PATH, PASSWORD_RESET_START_PATH, type TokenPageState } from '../features/accountTokens/state.js';

export default function TokenExpired(): ReactElement {
  const { t } = useTranslation();
  const state = (useLocation().state ?? {}) as TokenPageState;
  const texts = state.flow === 'passwordReset' ? 'passwordReset.expired' : 'activation.expired';
  const alreadyActivated = state.errorCode === 'already_activated';
  return (
    <section className="token-expired">
      <p className="warning-text" role="alert">
        {t(`${texts}.warning`)}
      </p>
      <p>{alreadyActivated ? t('activation.expired.alreadyActivated') : t(`${texts}.description`)}</p>
      {alreadyActivated ? (
        <Link className="button" to={SIGNIN_PATH}>
          {t('activation.expired.signIn')}
        </Link>
      ) : state.from === 'passwordReset' ? (
        <Link className="button button--primary" to={PASSWORD_RESET_START_PATH}>
          {t('passwordReset.expired.restart')}
        </Link>
      ) : (
        <Link className="button button--primary" to={ACTIVATION_START_PATH}>
          {t('activation.expired.restart')}
        </Link>
      )}
    </section>
  );
}
