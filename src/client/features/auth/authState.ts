/**
 * The auth feature's slice: progress of the sign-in redirect and of the callback (SPEC 2.3), and the last ID token
 * (sent as id_token_hint at logout). Session and login context live in the shared session slice (state/session.ts).
 */
import type { UnknownAction } from 'redux';
import { actionCreator } from '../../state/actions.js';
import { sessionCleared } from '../../state/session.js';
import type { PostLogoutPath } from '../../../common/identity.js';
import type { SigninOptions } from './signinRequest.js';

export type SigninStatus = 'idle' | 'redirecting' | 'failed';
export type CallbackStatus = 'idle' | 'running' | 'failed';

export interface AuthState {
  signin: SigninStatus;
  callback: CallbackStatus;
  idToken: string | null;
}

export const initialAuthState: AuthState = { signin: 'idle', callback: 'idle', idToken: null };

/** /signin: build the request, store the verification state and go to the provider. */
export const signinRequested = actionCreator<SigninOptions, 'auth/signinRequested'>('auth/signinRequested');
export const signinFailed = actionCreator<void, 'auth/signinFailed'>('auth/signinFailed');
/** /auth/openid/callback: complete the sign-in from the callback's query string. */
export const callbackOpened = actionCreator<{ search: string }, 'auth/callbackOpened'>('auth/callbackOpened');
export const callbackFailed = actionCreator<void, 'auth/callbackFailed'>('auth/callbackFailed');
export const callbackSucceeded = actionCreator<void, 'auth/callbackSucceeded'>('auth/callbackSucceeded');
export const idTokenReceived = actionCreator<string, 'auth/idTokenReceived'>('auth/idTokenReceived');
export interface LogoutOptions {
  /**
   * Where the provider sends the browser after end-session: a path registered as a post-logout redirect
   * (POST_LOGOUT_PATHS); default '/'. The gateway's glo=true comes back to the gateway.
   */
  postLogoutPath?: PostLogoutPath;
}
/** /signout (and the gateway's glo=true). */
export const logoutRequested = actionCreator<LogoutOptions | void, 'auth/logoutRequested'>('auth/logoutRequested');

export function authReducer(state: AuthState = initialAuthState, action: UnknownAction): AuthState {
  if (signinRequested.match(action)) return { ...state, signin: 'redirecting' };
  if (signinFailed.match(action)) return { ...state, signin: 'failed' };
  if (callbackOpened.match(action)) return { ...state, callback: 'running' };
  if (callbackFailed.match(action)) return { ...state, callback: 'failed' };
  if (callbackSucceeded.match(action)) return { ...state, callback: 'idle' };
  if (idTokenReceived.match(action)) return { ...state, idToken: action.payload };
  if (sessionCleared.match(action)) return { ...state, idToken: null };
  return state;
}

export const authReducers = { auth: authReducer };

export interface AuthRootState {
  auth: AuthState;
}

export const selectSigninStatus = (state: AuthRootState): SigninStatus => state.auth.signin;
export const selectCallbackStatus = (state: AuthRootState): CallbackStatus => state.auth.callback;
export const selectIdToken = (state: AuthRootState): string | null => state.auth.idToken;
