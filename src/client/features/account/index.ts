/**
 * My Account (SPEC 2.6): after the name change the login context's `me` takes the new name. The screen
 * (screens/account-name.json) names this event in its success outcome; the response carries the affiliation whose
 * admin is the signed-in admin (one reading of SPEC §7 returns the admin itself: both are accepted).
 */
import { SCREEN_EVENTS } from '../../engine/events.js';
import { put, takeEvery } from 'redux-saga/effects';
import { actionCreator } from '../../state/actions.js';
import { meUpdated, type Me } from '../../state/session.js';

export const NAME_UPDATED = SCREEN_EVENTS.nameUpdated;
export const nameUpdated = actionCreator<unknown, typeof NAME_UPDATED>(NAME_UPDATED);

const NAME_FIELDS = ['firstName', 'lastName', 'kanaFirstName', 'kanaLastName'] as const;

/** Pure: the name fields of the response's admin. */
export function nameFromResponse(result: unknown): Partial<Me> | null {
  const body = result as { affiliation?: { admin?: Record<string, unknown> }; admin?: Record<string, unknown> } | null;
  const admin = body?.affiliation?.admin ?? body?.admin;
  if (!admin) return null;
  const name: Partial<Me> = {};
  for (const field of NAME_FIELDS) if (typeof admin[field] === 'string') name[field] = admin[field] as string;
  return Object.keys(name).length > 0 ? name : null;
}

export function* updateMe({ payload }: ReturnType<typeof nameUpdated>): Generator<unknown, void, unknown> {
  const name = nameFromResponse(payload);
  if (name) yield put(meUpdated(name));
}

export function* accountSaga() {
  yield takeEvery(NAME_UPDATED, updateMe);
}
