/**
 * What a form's conflict panel (ConflictPanel.tsx) asks of the form saga (issue 28); with the screen engine, not in the
 * first load: the state they change is formState.ts's.
 */
import { actionCreator } from '../../state/actions.js';

/** 'Show the latest': the record read as it is now. */
export const formLatestWanted = actionCreator<{ formId: string }>('forms/latestWanted');
/** 'Save mine anyway': the draft written again, on the latest version. */
export const formOverwriteWanted = actionCreator<{ formId: string }>('forms/overwriteWanted');

