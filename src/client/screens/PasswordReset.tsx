/**
 * Set a new password (/password/reset?admin_id=…&token=…, SPEC 2.5): a literal 'amp;' in the query (a mail client that
 * kept '&amp;') is removed before reading. After the token check, the request text and the new password with show/hide
 * and strength meter; 'Reset password' is disabled while the score is below 2 or while submitting.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import type { ScreenDefinition } from '../../common/screens.js';
import { TokenForm } from '../features/accountTokens/components.js';
import { TOKEN_EXPIRED_PATH, type TokenPageState } from '../features/accountTokens/index.js';

export function resetLinkParams(search: string): { adminId?: string; token?: string } {
  const query = new URLSearchParams(search.replace(/amp;/g, ''));
  const adminId = query.get('admin_id') ?? undefined;
  const token = query.get('token') ?? undefined;
  return { adminId: adminId && /^\d+$/.test(adminId) ? adminId : undefined, token: token || undefined };
}

const BAD_LINK: TokenPageState = { flow: 'passwordReset', from: 'passwordReset', errorCode: 'invalid_token' };

export default function PasswordReset({ screen }: { screen: ScreenDefinition }): ReactElement {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { adminId, token } = resetLinkParams(search);
  if (!adminId || !token) return <Navigate to={TOKEN_EXPIRED_PATH} replace state={BAD_LINK} />;
  return (
    <TokenForm
      screen={screen}
      flow="passwordReset"
      adminId={adminId}
      token={token}
      intro={() => <p>{t('passwordReset.reset.request')}</p>}
    />
  );
}
