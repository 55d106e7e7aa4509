/** Verification mail sent (/token/sent, SPEC 2.4): the attention and request texts of the flow in navigation state. */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { TokenPageState } from '../features/accountTokens/state.js';

export default function TokenSent(): ReactElement {
  const { t } = useTranslation();
  const state = (useLocation().state ?? {}) as TokenPageState;
  const flow = state.flow === 'passwordReset' ? 'passwordReset' : 'activation';
  return (
    <section className="token-sent" aria-labelledby="token-sent-heading">
      <h2 id="token-sent-heading">{t(`${flow}.sent.heading`)}</h2>
      <p className="attention">{t(`${flow}.sent.attention`)}</p>
      <p>{t(`${flow}.sent.request`)}</p>
    </section>
  );
}
