/**
 * My Account (SPEC 2.6): the name as 'first last (kana first kana last)' — reversed in Japanese, through the locale's
 * nameFormat —, the password masked with a link to change it, and the e-mail address, which cannot be changed.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { selectMe, type Me, type SessionRootState } from '../state/session.js';

export function displayName(me: Me, t: (key: string, options: Record<string, string>) => string): string {
  return t('account.nameFormat', {
    firstName: me.firstName ?? '',
    lastName: me.lastName ?? '',
    kanaFirstName: me.kanaFirstName ?? '',
    kanaLastName: me.kanaLastName ?? '',
  });
}

export default function Account(): ReactElement | null {
  const { t } = useTranslation();
  const me = useSelector((state: SessionRootState) => selectMe(state));
  if (!me) return null;
  return (
    <dl className="account">
      <div className="account__row">
        <dt>{t('account.fields.name')}</dt>
        <dd>
          <span className="account__value">{displayName(me, t)}</span>
          <Link className="account__change" to="/account/name/edit" aria-label={t('account.changeName')}>
            {t('account.change')}
          </Link>
        </dd>
      </div>
      <div className="account__row">
        <dt>{t('account.fields.password')}</dt>
        <dd>
          <span className="account__value" aria-label={t('account.fields.password')}>
            {t('account.maskedPassword')}
          </span>
          <Link className="account__change" to="/account/password/edit" aria-label={t('account.changePassword')}>
            {t('account.change')}
          </Link>
        </dd>
      </div>
      <div className="account__row">
        <dt>{t('account.fields.email')}</dt>
        <dd>
          <span className="account__value">{me.email}</span>
          <span className="account__note">{t('account.emailNote')}</span>
        </dd>
      </div>
    </dl>
  );
}
