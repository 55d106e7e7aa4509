/**
 * A screen made of blocks (ScreenDefinition.blocks): on entering, its data is loaded (loader until it has answered)
 * and its redirect scheduled; then its blocks render against the screen context, with the confirmation dialog of
 * its actions.
 */
import { use, useDeferredValue, useEffect, useMemo, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { shallowEqual, useDispatch, useSelector } from 'react-redux';
import { useLocation, useParams } from 'react-router-dom';
import type { Block, FormBlock, ScreenDefinition } from '../../../common/screens.js';
import { tokyoToday } from '../../../common/tokyoToday.js';
import { hasSteps, screenEntryKey } from '../routes.js';
import { isPending, type OperationsRootState } from '../../state/operations.js';
import { selectMe, selectOrganization, selectRole, type SessionRootState } from '../../state/session.js';
import { actionOperation } from './dialogState.js';
import { formScreenShown } from '../forms/formAhead.js';
import type { FeatureFlagsRootState } from '../featureFlags.js';
import type { PortalSettingsRootState } from '../portalSettings.js';
import { Loader } from '../Loader.js';
import { Reveal } from '../Reveal.js';
import { Blocks, renderBlocks } from './blocks/index.js';
import { FormView } from './blocks/FormView.js';
import { ActionDialog } from './ActionDialog.js';
import { startScreenEngine } from './engineSagas.js';
import { screenEntered, screenLeft, selectScreenData, type ScreenDataRootState } from './screenDataState.js';
import { screenReady } from './screenModule.js';
import { queryOf, type ScreenContext } from './values.js';

/** The block renderer, for the screen gallery's sample blocks (which load it with this chunk). */
export { Blocks };

type ContextState = SessionRootState & FeatureFlagsRootState & ScreenDataRootState & OperationsRootState & PortalSettingsRootState;

const NO_CLOSED_DAYS: string[] = [];
const isEmpty = (values: Record<string, unknown>) => Object.keys(values).length === 0;

/** The context the screen's conditions and values read. */
export function useScreenContext(screen: ScreenDefinition): ScreenContext {
  const params = useParams();
  const { search, state } = useLocation();
  const { i18n } = useTranslation();
  const role = useSelector((root: ContextState) => selectRole(root));
  const flags = useSelector((root: ContextState) => root.featureFlags);
  const me = useSelector((root: ContextState) => selectMe(root));
  const organization = useSelector((root: ContextState) => selectOrganization(root));
  // the business calendar's closed days (none until the settings are in: the weekday table alone; the server checks again)
  const closedDays = useSelector((root: ContextState) => root.portalSettings.settings.closedDays ?? NO_CLOSED_DAYS);
  const entry = useSelector((root: ContextState) => selectScreenData(root, screen.id));
  // A screen without a form shows its answers at a transition's priority: React renders a large one (Home's overview,
  // a table) in slices that leave the page free for input, not in one long task (issue 26: Lighthouse's blocking
  // time). A form's screen shows them at once: its steps and outcomes act on what was just answered.
  const deferred = useDeferredValue(entry);
  const { values: data, status } = screen.form ? entry : deferred;
  const { local } = entry;
  // the actions whose call is under way (e.g. SPEC 2.15: no Bulk update while an upload runs)
  const pending = useSelector(
    (root: ContextState) =>
      Object.fromEntries(Object.keys(screen.actions ?? {}).filter((actionId) => isPending(actionOperation(screen.id, actionId))(root)).map((actionId) => [actionId, true])),
    shallowEqual,
  );
  // the same object while the URL's query stays: what the context feeds (a form's initial data) is not recomputed;
  // the screen's defaults where the URL has no value
  const query = useMemo(() => ({ ...screen.query, ...queryOf(search) }), [search, screen.query]);
  const [clock] = useState(() => ({ today: tokyoToday(), time: Date.now() }));
  return {
    params,
    query,
    state: state !== null && typeof state === 'object' ? (state as Record<string, unknown>) : {},
    data,
    load: status,
    local,
    pending,
    role,
    flags: flags as Record<string, boolean>,
    me,
    organization,
    language: i18n.language,
    today: clock.today,
    closedDays,
    time: clock.time,
  };
}

/** A screen that declares a form and no blocks shows just the form. */
const FORM_ONLY: FormBlock = { type: 'form' };

/**
 * The blocks a screen shows while its data loads: its leading texts without a condition that read nothing of the data
 * (a lead, a heading). They are often its largest paint (issue 47: /users' lead, 1.1 s after its frame at 4× CPU,
 * waited for the list); shown above the loader, they stay where they are when the rest comes below them.
 */
export function leadBlocks(blocks: Block[]): Block[] {
  const end = blocks.findIndex((block) => block.type !== 'text' || block.when !== undefined || JSON.stringify(block).includes('$data'));
  return end < 0 ? blocks : blocks.slice(0, end);
}

/**
 * `screen` may be the route entry alone: the loader shows until the screen's chunk — its full definition, its
 * conditions and its words — is there, so nothing renders with a missing condition or a word as its key.
 */
export function ScreenView({ screen }: { screen: ScreenDefinition }): ReactElement {
  startScreenEngine(); // its sagas, before the screen's effects ask them for anything
  return (
    <Reveal fallback={<Loader />}>
      <ScreenChunk route={screen} />
    </Reveal>
  );
}

function ScreenChunk({ route }: { route: ScreenDefinition }): ReactElement {
  const { i18n } = useTranslation();
  return <LoadedScreenView screen={use(screenReady(i18n, route.id))} />;
}

function LoadedScreenView({ screen }: { screen: ScreenDefinition }): ReactElement {
  const dispatch = useDispatch();
  const { key, pathname } = useLocation();
  const params = useParams();
  const context = useScreenContext(screen);
  const entryKey = screenEntryKey(screen, params, { key });

  // left when another screen or path is shown; a new query on the same path (a sort order chosen in a select block)
  // keeps what is shown until the data entered again has answered, without the loader
  // (the steps of a form are one path here: moving between them keeps the data and the screen's own state)
  const leaveKey = hasSteps(screen) ? entryKey : pathname;
  useEffect(() => () => void dispatch(screenLeft({ screenId: screen.id })), [dispatch, screen.id, leaveKey]);
  useEffect(() => {
    const { data: _data, load: _load, local: _local, pending: _pending, ...entered } = context;
    dispatch(screenEntered({ screenId: screen.id, context: entered }));
    // entered again on a new navigation to the screen (key), not on every change of the context
  }, [dispatch, screen.id, entryKey]);

  // the loader stays until the first answers' render is ready: before the screen is entered, while its calls run, and
  // while the answers shown (deferred) lag behind the ones in — never the blocks without their data, which then pushed
  // everything below them down (issue 26: Home's layout shift)
  const answered = useSelector((root: ScreenDataRootState) => root.screenData[screen.id]);
  const firstLoad = screen.data !== undefined && isEmpty(context.data) && (answered === undefined || answered.status === 'loading' || !isEmpty(answered.values));
  // once the content is shown (an effect runs after the commit): a form it shows later is asked for now (formAhead.ts)
  const formSchema = screen.form?.schema;
  useEffect(() => {
    if (!firstLoad && formSchema) dispatch(formScreenShown({ schema: formSchema }));
  }, [dispatch, firstLoad, formSchema]);
  // a screen of its form alone: the form's steps and place while its data loads (issue 47: the frame first), drawn by
  // the same element as the form below them
  if (screen.form && !screen.blocks) {
    return (
      <>
        <FormView block={FORM_ONLY} screen={screen} context={context} renderBlocks={renderBlocks(screen)} waiting={firstLoad} />
        <ActionDialog />
      </>
    );
  }
  // a screen of blocks: its lead above the loader while its data loads
  if (firstLoad) {
    return (
      <>
        <Blocks blocks={leadBlocks(screen.blocks ?? [])} screen={screen} context={context} />
        <Loader />
      </>
    );
  }
  return (
    <>
      <Blocks blocks={screen.blocks ?? []} screen={screen} context={context} />
      <ActionDialog />
    </>
  );
}
