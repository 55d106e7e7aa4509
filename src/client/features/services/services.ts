/** The services available to the organisation, for the Home grid (SPEC 2.7). */
import type { UnknownAction } from 'redux';
import { call, put, takeLatest } from 'redux-saga/effects';
import type { Language } from '../../../common/languages.js';
import type { ServiceCard, ServicesAnswer } from '../../../common/api/answers.js';
import { callApi } from '../../api/callApi.js';
import { actionCreator } from '../../state/actions.js';

export type { ServiceCard };

export interface ServicesState {
  items: ServiceCard[];
}

export const SERVICES_OPERATION = 'services/load';
export const servicesRequested = actionCreator<{ language: Language }>('services/requested');
export const servicesLoaded = actionCreator<ServiceCard[]>('services/loaded');

export function servicesReducer(state: ServicesState = { items: [] }, action: UnknownAction): ServicesState {
  return servicesLoaded.match(action) ? { items: action.payload } : state;
}

export const servicesReducers = { services: servicesReducer };

export interface ServicesRootState {
  services: ServicesState;
}

export const selectServices = (state: ServicesRootState): ServiceCard[] => state.services.items;

export function* loadServices({ payload }: ReturnType<typeof servicesRequested>) {
  try {
    const response: ServicesAnswer = yield call(callApi, SERVICES_OPERATION, { path: 'services', query: { lang: payload.language } });
    yield put(servicesLoaded(response.services));
  } catch {
    // the general error handling has told the user; the grid stays as it was
  }
}

export function* servicesSaga() {
  yield takeLatest(servicesRequested.type, loadServices);
}
