/**
 * The server's runtime settings the browser needs (GET portal_settings, README Configuration): the announcement page
 * the header opens and the support chat widget. Loaded once when the app starts, signed in or not; the one place
 * where a future runtime setting joins. A failed load keeps the defaults: the portal's own announcement page, no chat.
 */
import type { UnknownAction } from 'redux';
import { call, put, takeLatest } from 'redux-saga/effects';
import type { PortalSettingsAnswer } from '../../common/api/answers.js';
import type { Language } from '../../common/languages.js';
import { callApi } from '../api/callApi.js';
import { actionCreator } from '../state/actions.js';
import { APP_STARTED } from '../state/app.js';

export type PortalSettings = PortalSettingsAnswer;

export interface PortalSettingsState {
  /** false until the answer (or its failure) is in. */
  loaded: boolean;
  settings: PortalSettings;
}

/** The portal's own announcement list (screens/announcements.json): what ANNOUNCEMENT_PAGE_URL defaults to. */
export const DEFAULT_ANNOUNCEMENT_PAGE_URL = '/announcements';

export const initialPortalSettingsState: PortalSettingsState = { loaded: false, settings: { announcementPageUrl: DEFAULT_ANNOUNCEMENT_PAGE_URL } };

export const PORTAL_SETTINGS_OPERATION = 'portalSettings/load';
export const PORTAL_SETTINGS_LOADED = 'portalSettings/loaded';
/** The settings, or null when they could not be loaded (the defaults stay). */
export const portalSettingsLoaded = actionCreator<PortalSettings | null, typeof PORTAL_SETTINGS_LOADED>(PORTAL_SETTINGS_LOADED);

export function portalSettingsReducer(state: PortalSettingsState = initialPortalSettingsState, action: UnknownAction): PortalSettingsState {
  if (portalSettingsLoaded.match(action)) return { loaded: true, settings: action.payload ?? state.settings };
  return state;
}

export const portalSettingsReducers = { portalSettings: portalSettingsReducer };

export interface PortalSettingsRootState {
  portalSettings: PortalSettingsState;
}

export const selectPortalSettings = (state: PortalSettingsRootState): PortalSettings => state.portalSettings.settings;

/** The announcement page for a language: `{lang}` in the configured URL becomes the language. */
export const selectAnnouncementPageUrl =
  (language: Language) =>
  (state: PortalSettingsRootState): string =>
    state.portalSettings.settings.announcementPageUrl.replaceAll('{lang}', language);

export function* loadPortalSettings(): Generator<unknown, void, unknown> {
  try {
    const settings = (yield call(
      callApi<PortalSettingsAnswer>,
      PORTAL_SETTINGS_OPERATION,
      { path: 'portal_settings', token: null },
      // claim every error: the defaults stay, nothing is shown
      { handle: () => true },
    )) as PortalSettingsAnswer;
    yield put(portalSettingsLoaded(settings));
  } catch {
    yield put(portalSettingsLoaded(null));
  }
}

/** Fork in the root saga. */
export function* portalSettingsSaga() {
  yield takeLatest(APP_STARTED, loadPortalSettings);
}
