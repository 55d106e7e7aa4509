/**
 * Activate (/admins/:adminId/activate/:token, SPEC 2.4): after the token check, the attention and request texts,
 * names, kana names and password (strength meter), the terms link and 'Agree and activate', which stays disabled
 * until the form has changed, while submitting, and while the password scores below 2.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import type { ScreenDefinition } from '../../common/screens.js';
import { TokenForm } from '../features/accountTokens/components.js';
import { TOKEN_EXPIRED_PATH, type TokenAdmin } from '../features/accountTokens/index.js';

const NAME_FIELDS = ['lastName', 'firstName', 'kanaLastName', 'kanaFirstName'] as const;

/** The names an invitation may already hold. */
export function namesOf(admin: TokenAdmin): Record<string, unknown> {
  return Object.fromEntries(NAME_FIELDS.flatMap((field) => (admin[field] ? [[field, admin[field]]] : [])));
}

export default function Activate({ screen }: { screen: ScreenDefinition }): ReactElement {
  const { t } = useTranslation();
  const { adminId, token } = useParams();
  if (!adminId || !/^\d+$/.test(adminId) || !token) return <Navigate to={TOKEN_EXPIRED_PATH} replace state={{ errorCode: 'invalid_token' }} />;
  return (
    <TokenForm
      screen={screen}
      flow="activation"
      adminId={adminId}
      token={token}
      disabledUntilChanged
      initialDataFrom={namesOf}
      intro={(admin) => (
        <>
          <p className="attention">{t('activation.activate.attention')}</p>
          <p>{t('activation.activate.request', { email: admin.email ?? '' })}</p>
        </>
      )}
      actions={
        <p className="form__terms">
          {t('activation.activate.termsBefore')}
          <a href={t('links.terms')} target="_blank" rel="noreferrer">
            {t('activation.activate.terms')}
          </a>
          {t('activation.activate.termsAfter')}
        </p>
      }
    />
  );
}
