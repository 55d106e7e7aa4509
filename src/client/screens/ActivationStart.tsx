/** Register Account (/activation/start, SPEC 2.4): the e-mail field, pre-filled from the `email` query parameter. */
import { useMemo, type ReactElement } from 'react';
import { useLocation } from 'react-router-dom';
import type { ScreenDefinition } from '../../common/screens.js';
import { MailRequestForm } from '../features/accountTokens/components.js';

export function initialEmail(search: string): Record<string, unknown> {
  const email = new URLSearchParams(search).get('email')?.trim();
  return email ? { email } : {};
}

export default function ActivationStart({ screen }: { screen: ScreenDefinition }): ReactElement {
  const { search } = useLocation();
  const initialData = useMemo(() => initialEmail(search), [search]);
  return <MailRequestForm screen={screen} flow="activation" initialData={initialData} />;
}
