/**
 * The dialog an action opened: a confirmation (SPEC 2.13: title, body, Cancel and the confirm button, red for a
 * danger action) or the action's form (SPEC 2.12: title, the red warning that the input is lost, the form). Escape
 * and a click on the backdrop cancel it unless the definition says otherwise (a form's backdrop never does); the
 * focus moves into it on opening and the Tab key stays inside.
 */
import { lazy, Suspense, useEffect, useId, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Loader } from '../Loader.js';
import { dialogCancelled, dialogConfirmed, selectDialog, type DialogRootState } from './dialogState.js';

const ModalForm = lazy(() => import(/* webpackChunkName: "modal-form" */ './ModalForm.js'));

const FOCUSABLE = 'button, input, select, textarea, a[href]';

export function ActionDialog(): ReactElement | null {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const dialog = useSelector((state: DialogRootState) => selectDialog(state));
  const titleId = useId();
  const bodyId = useId();
  const cancelButton = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (dialog) (cancelButton.current ?? box.current)?.focus();
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
      const buttons = [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
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
      <div
        ref={box}
        className={dialog.form ? 'dialog dialog--form' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={dialog.body ? bodyId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dialog__title">
          {t(dialog.title, dialog.values)}
        </h2>
        {dialog.form ? (
          <>
            {dialog.body && (
              <p id={bodyId} className="text--warning">
                {t(dialog.body)}
              </p>
            )}
            <Suspense fallback={<Loader />}>
              <ModalForm form={dialog.form} onCancel={cancel} />
            </Suspense>
          </>
        ) : (
          <>
            <p id={bodyId}>{t(dialog.body, dialog.values)}</p>
            <div className="dialog__actions">
              <button ref={cancelButton} type="button" className="button" onClick={cancel}>
                {t(dialog.cancelLabel ?? 'common.cancel')}
              </button>
              <button type="button" className={`button ${dialog.danger ? 'button--danger' : 'button--primary'}`} onClick={() => dispatch(dialogConfirmed())}>
                {t(dialog.confirmLabel, dialog.values)}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
