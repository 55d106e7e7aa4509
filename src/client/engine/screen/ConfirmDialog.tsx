/**
 * The confirmation dialog an action opened (SPEC 2.13): a modal with its title, body, Cancel and the confirm button
 * (red for a danger action). Escape and a click on the backdrop cancel it unless the definition says otherwise;
 * the focus moves into it on opening and the Tab key stays inside.
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { dialogCancelled, dialogConfirmed, selectDialog, type DialogRootState } from './actions.js';

export function ConfirmDialog(): ReactElement | null {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const dialog = useSelector((state: DialogRootState) => selectDialog(state));
  const titleId = useId();
  const bodyId = useId();
  const cancelButton = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (dialog) cancelButton.current?.focus();
  }, [dialog]);

  if (!dialog) return null;
  const cancel = () => dispatch(dialogCancelled());
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && dialog.closeOnEscape !== false) {
      event.stopPropagation();
      cancel();
    }
    if (event.key === 'Tab') {
      // keep the focus inside the dialog
      const buttons = [...(box.current?.querySelectorAll<HTMLElement>('button') ?? [])];
      const index = buttons.indexOf(document.activeElement as HTMLElement);
      const next = event.shiftKey ? (index <= 0 ? buttons.length - 1 : index - 1) : (index + 1) % buttons.length;
      event.preventDefault();
      buttons[next]?.focus();
    }
  };
  return (
    <div
      className="dialog__backdrop"
      data-testid="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && dialog.closeOnBackdrop !== false) cancel();
      }}
    >
      <div ref={box} className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={bodyId} onKeyDown={onKeyDown}>
        <h2 id={titleId} className="dialog__title">
          {t(dialog.title, dialog.values)}
        </h2>
        <p id={bodyId}>{t(dialog.body, dialog.values)}</p>
        <div className="dialog__actions">
          <button ref={cancelButton} type="button" className="button" onClick={cancel}>
            {t(dialog.cancelLabel ?? 'common.cancel')}
          </button>
          <button type="button" className={`button ${dialog.danger ? 'button--danger' : 'button--primary'}`} onClick={() => dispatch(dialogConfirmed())}>
            {t(dialog.confirmLabel, dialog.values)}
          </button>
        </div>
      </div>
    </div>
  );
}
