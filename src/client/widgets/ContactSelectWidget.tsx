/**
 * A contact or billing contact chosen from the organisation's records (SPEC 2.11 steps 6 and 8): a dropdown of the
 * records with an 'add' item, or an add button when there are none; the chosen record previewed by the screen's
 * fragment contact-preview (SPEC 2.11 'Contact preview', the order summary's too) with a 'change' action; disabled it shows '---'. Adding and changing run the screen's actions (the modal
 * forms of SPEC 2.12) through the form context, the record as `$item`. Options (bound in `ui:bind`): `records`,
 * `addAction`, `editAction`, `addLabel` (locale key).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetProps } from '@rjsf/utils';
import { isWidgetFormContext } from './formContext.js';

type ContactRecord = Record<string, unknown> & { id: number };

interface ContactSelectOptions {
  records?: ContactRecord[];
  addAction?: string;
  editAction?: string;
  addLabel?: string;
}

const ADD = 'add';
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function ContactSelectWidget({ id, value, disabled, readonly, options, onChange, onBlur, onFocus, formContext, registry, label, rawErrors }: WidgetProps): ReactElement {
  const { t } = useTranslation();
  const { records = [], addAction, editAction, addLabel = 'common.add' } = options as ContactSelectOptions;
  const context = formContext ?? registry?.formContext;
  const run = (actionId: string | undefined, item?: unknown) => {
    if (actionId && isWidgetFormContext(context)) context.runAction?.(actionId, item === undefined ? {} : { item });
  };
  const name = label ? t(label) : undefined;
  if (disabled) {
    return (
      <select id={id} className="select" disabled aria-label={name} value="">
        <option value="">---</option>
      </select>
    );
  }
  const chosen = records.find((record) => record.id === value);
  if (records.length === 0) {
    return (
      <div id={id} className="contact-select" tabIndex={-1}>
        <button type="button" className="button" disabled={readonly} onClick={() => run(addAction)}>
          {t(addLabel)}
        </button>
      </div>
    );
  }
  return (
    <div className="contact-select">
      <select
        id={id}
        className="select"
        value={chosen ? String(chosen.id) : ''}
        disabled={readonly}
        aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
        onChange={(event) => {
          if (event.target.value === ADD) run(addAction);
          else if (event.target.value !== '') onChange(Number(event.target.value));
        }}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      >
        {!chosen && <option value="" />}
        {records.map((record) => (
          <option key={record.id} value={String(record.id)}>
            {[text(record.corporationName), text(record.departmentName), `${text(record.lastName)} ${text(record.firstName)}`].filter((part) => part.trim() !== '').join(' / ')}
          </option>
        ))}
        <option value={ADD}>{t(addLabel)}</option>
      </select>
      {chosen && (
        <div className="contact-select__preview">
          {isWidgetFormContext(context) ? context.renderFragment?.('contact-preview', { contact: chosen }) : null}
          {editAction && (
            <button type="button" className="link" onClick={() => run(editAction, chosen)}>
              {t('subscriptions.wizard.preview.change')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
