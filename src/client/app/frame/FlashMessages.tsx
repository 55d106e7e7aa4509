import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { flashClosed, selectFlashMessages } from '../../state/flash.js';

/** Flash messages; the store clears them at 3800 ms, the close button after its 800 ms animation (SPEC 2.2). */
export function FlashMessages(): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const messages = useSelector(selectFlashMessages);
  return (
    <div className="flash" aria-live="polite">
      {messages.map((message) => (
        <div key={message.id} className={`flash__item flash__item--${message.kind}${message.closing ? ' flash__item--closing' : ''}`} role={message.kind === 'error' || message.kind === 'warning' ? 'alert' : 'status'}>
          <span>{t(message.messageKey, message.params)}</span>
          <button type="button" className="flash__close" aria-label={t('common.close')} onClick={() => dispatch(flashClosed(message.id))}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
