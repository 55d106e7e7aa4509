/**
 * What a form's conflict panel (ConflictPanel.tsx) asks of the form saga (issue 28); with the screen engine, not in the
 * first load: the state they change is formState.ts's.
 */
import type { ConflictDefinition } from '../../../common/screens.js';
import { actionCreator } from '../../state/actions.js';
import { resolveValue, resolveValues, valueAt, type ScreenContext } from '../screen/values.js';

/** 'Show the latest': the record read as it is now. */
export const formLatestWanted = actionCreator<{ formId: string }>('forms/latestWanted');
/** 'Save mine anyway': the draft written again, on the latest version. */
export const formOverwriteWanted = actionCreator<{ formId: string }>('forms/overwriteWanted');

/** The record as the conflict panel compares it: as the form's fields (`definition.fields`, reading the record as `$body`), with its version. */
export function latestAsForm(definition: ConflictDefinition, record: Record<string, unknown>, context: Partial<ScreenContext>): Record<string, unknown> {
  if (!definition.fields) return record;
  return { ...resolveValues(definition.fields, { ...context, body: record }), etag: record.etag };
}

/** The names of the ids of the fields that hold ids (`definition.labels`), read from the screen's loaded options. */
export function conflictLabels(definition: ConflictDefinition, context: Partial<ScreenContext>): Record<string, Record<string, string>> | undefined {
  if (!definition.labels) return undefined;
  return Object.fromEntries(
    Object.entries(definition.labels).map(([field, { options, key, label }]) => {
      const list = resolveValue(options, context);
      const names = (Array.isArray(list) ? list : []).map((option) => [String(valueAt(option, key)), label.map((part) => valueAt(option, part) ?? '').join(' ').trim()]);
      return [field, Object.fromEntries(names)];
    }),
  );
}
