/**
 * Feature flags (SPEC §7 GET enabled_feature_flags/{name}): loaded for the signed-in admin when the app starts with
 * a session and whenever an organisation is selected. A failure counts as disabled (SPEC §8 Other) and shows nothing.
 */
import type { UnknownAction } from 'redux';
import { all, call, put, select, takeLatest } from 'redux-saga/effects';
import type { FeatureFlagAnswer } from '../../common/api/answers.js';
import { callApi } from '../api/callApi.js';
import { actionCreator } from '../state/actions.js';
import { APP_STARTED } from '../state/app.js';
import { hasSession, ORGANIZATION_SELECTED, SESSION_CLEARED, type SessionRootState } from '../state/session.js';

/** The flags the portal asks for. */
export const FEATURE_FLAGS = ['product_admin_roles'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export type FeatureFlagsState = Partial<Record<FeatureFlag, boolean>>;

export const featureFlagLoaded = actionCreator<{ name: FeatureFlag; enabled: boolean }, 'featureFlags/loaded'>('featureFlags/loaded');

export function featureFlagsReducer(state: FeatureFlagsState = {}, action: UnknownAction): FeatureFlagsState {
  if (featureFlagLoaded.match(action)) return { ...state, [action.payload.name]: action.payload.enabled };
  if (action.type === SESSION_CLEARED) return {};
  return state;
}

export const featureFlagsReducers = { featureFlags: featureFlagsReducer };

export interface FeatureFlagsRootState {
  featureFlags: FeatureFlagsState;
}

/** `useSelector(isFeatureEnabled('product_admin_roles'))`; unknown or failed → false. */
export const isFeatureEnabled =
  (name: FeatureFlag) =>
  (state: FeatureFlagsRootState): boolean =>
    state.featureFlags[name] === true;

export function* loadFeatureFlag(name: FeatureFlag): Generator<unknown, void, unknown> {
  let enabled = false;
  try {
    const response = (yield call(callApi, `featureFlags/${name}`, { path: `enabled_feature_flags/${name}` }, { handle: () => true })) as FeatureFlagAnswer;
    enabled = response.enabled === true;
  } catch {
    // treated as disabled
  }
  yield put(featureFlagLoaded({ name, enabled }));
}

export function* loadFeatureFlags(): Generator<unknown, void, unknown> {
  if (!((yield select((state: SessionRootState) => hasSession(state))) as boolean)) return;
  yield all(FEATURE_FLAGS.map((name) => call(loadFeatureFlag, name)));
}

export function* featureFlagsSaga() {
  yield takeLatest([APP_STARTED, ORGANIZATION_SELECTED], loadFeatureFlags);
}
