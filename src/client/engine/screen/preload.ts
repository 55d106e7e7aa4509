/**
 * The route's preload (issue 26): the moment a route is matched — from the first load's route table, before the
 * screen's code has arrived — the screen's chunks are asked for and its data calls leave (RoutePreload). The screen's
 * data saga then takes a preloaded answer instead of asking again (calls.ts runCall): whichever arrives first waits
 * for the other, and the same data is never asked for twice. In the first load: it must not wait for the engine.
 */
import type { Task } from 'redux-saga';
import { call, fork, select, takeEvery } from 'redux-saga/effects';
import type { ScreenDefinition } from '../../../common/screens.js';
import { callApi } from '../../api/callApi.js';
import { actionCreator } from '../../state/actions.js';
import { gloplaId, hasSession, isManager, type SessionRootState } from '../../state/session.js';
import { importFormChunk } from '../dataChunks.js';
import { makeDateFieldAhead } from '../dateFieldAhead.js';
import { afterFrame } from '../forms/formEngineGate.js';
import { importFormScreen } from '../forms/formScreenChunk.js';
import { decideAccess } from '../guard.js';
import { urgentTask } from '../paint.js';
import { screenEntryKey } from '../routes.js';
import { callTarget, errorResult, targetKey, type CallResult, type CallTarget } from './callRequest.js';
import { isGeneratedScreen } from './navigation.js';
import { clearPreloaded, putPreloaded } from './preloadedAnswers.js';
import { engineWords, screenChunk } from './screenModule.js';
import { importVirtualTable } from './blocks/virtualTableChunk.js';
import { importScreenView } from './screenViewChunk.js';
import { queryOf } from './values.js';

type Params = Record<string, string | undefined>;

/** A screen entered (screenEntryKey): its route entry, the route's parameters, the URL's query, the page's language. */
export const routeMatched = actionCreator<{ screen: ScreenDefinition; params: Params; search: string; language: string }>('screens/routeMatched');

/**
 * One data call, in a task of its own ahead of the page's ordinary tasks: a call is 1–3 ms of the page's thread (fetch,
 * its timer, the saga's steps; 5–17 ms under Lighthouse's tracing), and the wizard's six in one task made one of 47
 * ms at 1× (issue 47: Lighthouse's blocking time). Its answer is registered before it leaves (preloadRoute).
 */
function* preloadCall(operation: string, target: CallTarget): Generator<unknown, CallResult, unknown> {
  yield call(urgentTask);
  try {
    // a failure is handled when the screen takes it: its outcomes may claim it (runCall)
    return { ok: true, body: yield* callApi(operation, target, { handle: () => true }) };
  } catch (error) {
    return errorResult(error);
  }
}

const ignore = () => undefined;

/** The chunks a screen made of blocks needs: the block engine, its definition and words, the form it shows at once. */
function preloadScreenCode(screen: ScreenDefinition, language: string): void {
  if (screen.component) return; // a code component's chunk comes with its render
  importScreenView().catch(ignore);
  engineWords(language).catch(ignore);
  if (isGeneratedScreen(screen.id)) screenChunk(screen.id, language).catch(ignore);
  if (screen.preload?.form) {
    importFormScreen().catch(ignore);
    importFormChunk(screen.preload.form).catch(ignore);
  }
  if (screen.preload?.dateField) afterFrame(makeDateFieldAhead).catch(ignore);
  // beside the block engine, not after it: the two share no module (VirtualTableParts)
  if (screen.preload?.virtualTable) importVirtualTable().catch(ignore);
}

/** Whether the guard lets the signed-in admin (or visitor) in: nothing is asked for a page that redirects. */
function canEnter(screen: ScreenDefinition, state: SessionRootState): boolean {
  const access = { hasSession: hasSession(state), gloplaId: gloplaId(state), isManager: isManager(state), location: { pathname: '', search: '' } };
  return decideAccess(screen.access, access).kind === 'render';
}

export function* preloadRoute({ payload: { screen, params, search, language } }: ReturnType<typeof routeMatched>): Generator<unknown, void, unknown> {
  clearPreloaded();
  const state = (yield select()) as SessionRootState;
  if (!canEnter(screen, state)) return;
  const context = { params, query: { ...screen.query, ...queryOf(search) }, language };
  for (const [key, definition] of Object.entries(screen.preload?.data ?? {})) {
    let target: CallTarget;
    try {
      target = callTarget(definition, context, state);
    } catch {
      continue; // a path nothing fills: the screen's own call reports it
    }
    const task = (yield fork(preloadCall, `screens/${screen.id}/${key}`, target)) as Task;
    putPreloaded(targetKey(target), task.toPromise() as Promise<CallResult>);
  }
  // after the data calls (each in its task, queued before this one): the server's answers take longer than the chunks
  yield call(urgentTask);
  yield call(preloadScreenCode, screen, language);
}

export function* preloadSaga() {
  yield takeEvery(routeMatched.type, preloadRoute);
}

const screenOf = (match: RouterState['matches'][number] | undefined) => (match?.route.handle as { screen?: ScreenDefinition } | undefined)?.screen;

/**
 * The first route's chunks, asked for before the saved login is restored (a login is stored): they arrive while it is
 * decrypted and the store starts, not after (issue 26). The route's preload asks again once the guard has let the
 * admin in; each chunk is fetched once.
 */
export function preloadRouteCode({ matches }: Pick<RouterState, 'matches'>, language: string): void {
  const screen = screenOf(matches.at(-1));
  if (screen) preloadScreenCode(screen, language);
}

/** What the router tells its listeners, as far as the preload reads it. */
interface RouterState {
  location: { key: string; search: string };
  matches: Array<{ params: Params; route: { handle?: unknown } }>;
}

/**
 * Announces each entry to a screen (the first route, then every navigation) as routeMatched, before React renders
 * it: the screen's data saga finds the preloaded answers.
 */
export function announceRoutes(router: { state: RouterState; subscribe(listener: (state: RouterState) => void): unknown }, dispatch: (action: ReturnType<typeof routeMatched>) => unknown, language: () => string): void {
  let last: string | undefined;
  const announce = ({ matches, location }: RouterState) => {
    const match = matches.at(-1);
    const screen = screenOf(match);
    if (!match || !screen) return;
    const key = `${screen.id} ${screenEntryKey(screen, match.params, location)}`;
    if (key === last) return;
    last = key;
    dispatch(routeMatched({ screen, params: match.params, search: location.search, language: language() }));
  };
  announce(router.state);
  router.subscribe(announce);
}
