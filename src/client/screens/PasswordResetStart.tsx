/** Request a password-reset mail (/password/reset/start, SPEC 2.5). */
import type { ReactElement } from 'react';
import type { ScreenDefinition } from '../../common/screens.js';
import { MailRequestForm } from '../features/accountTokens/components.js';

export default function PasswordResetStart({ screen }: { screen: ScreenDefinition }): ReactElement {
  return <MailRequestForm screen={screen} flow="passwordReset" />;
}
