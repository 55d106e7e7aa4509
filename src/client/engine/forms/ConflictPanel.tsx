/**
 * What a form shows when its write was refused as made on an old version (Outcome.conflict, issue 28): who changed the
 * record and when (the error catalogue's words), 'Show the latest' — the fields where the draft and the saved record
 * differ, side by side — and 'Save mine anyway', the draft written again on the latest version. The draft stays as
 * typed throughout; the saga reads and writes (formSaga.ts).
 */
import type { ReactElement } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { ConflictDefinition } from '../../../common/screens.js';
import { resolveValue, resolveValues, valueAt, type ScreenContext } from '../screen/values.js';
import { formLatestWanted, formOverwriteWanted } from './conflict.js';
import type { FormConflict } from './formState.js';

interface ConflictPanelProps {
  formId: string;
  conflict: FormConflict;
  /** The draft as typed. */
  data: Record<string, unknown>;
  /** The form's schema: its fields, in order, and their titles (locale keys). */
  schema: RJSFSchema | undefined;
  /** The form's bound uiSchema: a field's label there (`ui:title`, a locale key) is the one the form shows. */
  uiSchema?: UiSchema;
  submitting: boolean;
}

/** The record as the panel compares it: as the form's fields (`definition.fields`, reading the record as `$body`). */
function latestAsForm(definition: ConflictDefinition, record: Record<string, unknown>, context: Partial<ScreenContext>): Record<string, unknown> {
  return definition.fields ? resolveValues(definition.fields, { ...context, body: record }) : record;
}

/** The names of the ids of the fields that hold ids (`definition.labels`), read from the screen's loaded options. */
function conflictLabels(definition: ConflictDefinition, context: Partial<ScreenContext>): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(definition.labels ?? {}).map(([field, { options, key, label }]) => {
      const list = resolveValue(options, context);
      const names = (Array.isArray(list) ? list : []).map((option) => [String(valueAt(option, key)), label.map((part) => valueAt(option, part) ?? '').join(' ').trim()]);
      return [field, Object.fromEntries(names)];
    }),
  );
}

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** Whether the draft's value and the saved one are the same: rows compared on the fields both have (a draft row may lack the saved one's extras). */
function same(mine: unknown, saved: unknown): boolean {
  if (isBlank(mine) || isBlank(saved)) return isBlank(mine) && isBlank(saved);
  if (Array.isArray(mine) || Array.isArray(saved)) {
    return Array.isArray(mine) && Array.isArray(saved) && mine.length === saved.length && mine.every((element, index) => same(element, saved[index]));
  }
  if (typeof mine === 'object' && typeof saved === 'object') {
    const savedRecord = saved as Record<string, unknown>;
    return Object.entries(mine as Record<string, unknown>).every(([key, value]) => !(key in savedRecord) || same(value, savedRecord[key]));
  }
  return String(mine) === String(saved);
}

/** Rows of a list shown at most (a learner list can be long): the rest is counted. */
const ROWS_SHOWN = 5;

/** A value as the panel shows it: an id by its name (labels), a list a line per element, a row by its texts. */
function shown(value: unknown, labels: Record<string, string> | undefined, t: TFunction): string {
  if (isBlank(value)) return '';
  if (Array.isArray(value)) {
    const lines = value.slice(0, ROWS_SHOWN).map((element) => shown(element, labels, t));
    return [...lines, ...(value.length > ROWS_SHOWN ? [t('common.conflict.more', { count: value.length - ROWS_SHOWN })] : [])].join('\n');
  }
  // a row (a learner): its texts, not its stored ids
  if (typeof value === 'object') return Object.values(value as object).filter((part) => typeof part === 'string' && part !== '').join(' ');
  return labels?.[String(value)] ?? String(value);
}

export function ConflictPanel({ formId, conflict, data, schema, uiSchema, submitting }: ConflictPanelProps): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const properties = (schema?.properties ?? {}) as Record<string, { title?: string }>;
  const { definition, submission } = conflict;
  const latest = conflict.latest && latestAsForm(definition, conflict.latest, submission.context);
  const labels = conflictLabels(definition, submission.context);
  const differing = latest ? Object.keys(properties).filter((field) => field in latest && !same(data[field], latest[field])) : [];
  const text = (field: string, value: unknown) => shown(value, labels[field], t);
  const titleOf = (field: string) => {
    const title = (uiSchema?.[field] as UiSchema | undefined)?.['ui:title'] ?? properties[field]?.title;
    return typeof title === 'string' ? t(title) : field;
  };
  return (
    <section className="panel panel--warning conflict" aria-labelledby={`${formId}-conflict`}>
      <p id={`${formId}-conflict`} role="alert">
        {t(conflict.message.messageKey, conflict.message.params)}
      </p>
      {latest && differing.length === 0 && <p>{t('common.conflict.same')}</p>}
      {latest && differing.length > 0 && (
        <table className="table conflict__table">
          <caption>{t('common.conflict.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('common.conflict.field')}</th>
              <th scope="col">{t('common.conflict.yours')}</th>
              <th scope="col">{t('common.conflict.saved')}</th>
            </tr>
          </thead>
          <tbody>
            {differing.map((field) => (
              <tr key={field}>
                <th scope="row">{titleOf(field)}</th>
                <td>{text(field, data[field])}</td>
                <td>{text(field, latest![field])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="links">
        {!conflict.latest && (
          <button type="button" className="button" onClick={() => dispatch(formLatestWanted({ formId }))}>
            {t('common.conflict.showLatest')}
          </button>
        )}
        <button type="button" className="button button--primary" disabled={submitting} onClick={() => dispatch(formOverwriteWanted({ formId }))}>
          {t('common.conflict.saveMine')}
        </button>
      </div>
    </section>
  );
}
