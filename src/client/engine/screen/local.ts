/** The screen's own state (Outcome.set; read as `$local.<name>`), kept in its screenData entry while it is shown. */
import { actionCreator } from '../../state/actions.js';

export const screenLocalSet = actionCreator<{ screenId: string; values: Record<string, unknown> }>('screens/localSet');
