/**
 * What a form shows when its write was refused as made on an old version (Outcome.conflict, issue 28): who changed the
 * record and when (the error catalogue's words), 'Show the latest' — the fields where the draft and the saved record
 * differ, side by side — and 'Save mine anyway', the draft written again on the latest version. The draft stays as
 * typed throughout; the saga reads and writes (formSaga.ts).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import type { RJSFSchema } from '@rjsf/utils';
import { formLatestWanted, formOverwriteWanted } from './conflict.js';
import type { FormConflict } from './formState.js';

interface ConflictPanelProps {
  formId: string;
  conflict: FormConflict;
  /** The draft as typed. */
  data: Record<string, unknown>;
  /** The form's schema: its fields, in order, and their titles (locale keys). */
  schema: RJSFSchema | undefined;
  submitting: boolean;
}

const shown = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

export function ConflictPanel({ formId, conflict, data, schema, submitting }: ConflictPanelProps): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const properties = (schema?.properties ?? {}) as Record<string, { title?: string }>;
  const differing = conflict.latest ? Object.keys(properties).filter((field) => shown(data[field]) !== shown(conflict.latest![field])) : [];
  return (
    <section className="panel panel--warning conflict" aria-labelledby={`${formId}-conflict`}>
      <p id={`${formId}-conflict`} role="alert">
        {t(conflict.message.messageKey, conflict.message.params)}
      </p>
      {conflict.latest && differing.length === 0 && <p>{t('common.conflict.same')}</p>}
      {conflict.latest && differing.length > 0 && (
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
                <th scope="row">{properties[field]?.title ? t(properties[field].title) : field}</th>
                <td>{shown(data[field])}</td>
                <td>{shown(conflict.latest![field])}</td>
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
