/**
 * The session (SPEC §3 Session) and the current login context (SPEC §3 Current login context).
 * A non-null session means the browser holds tokens; the login context is filled when an
 * organisation is selected after sign-in (SPEC §4 Sign-in step 5).
 */
import type { UnknownAction } from 'redux';
import { actionCreator } from './actions.js';

export type Role = 'manager' | 'member';
export const DEFAULT_ROLE: Role = 'member';

/** One of the signed-in admin's affiliations as the session keeps it. */
export interface SessionAffiliation {
  role?: Role;
  organization: { id: number; gloplaId: string };
}

export interface Session {
  token: string;
  refreshToken: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: createdAt + expiresIn seconds. */
  expiredAt: string;
  /** ISO 8601: createdAt + refreshTokenExpiresIn seconds. */
  refreshTokenExpiresAt: string;
  affiliations: SessionAffiliation[];
}

/** The identity provider's token response, camelCased (SPEC §7 Token exchange). */
export interface TokenResponse {
  accessToken: string;
  refreshToken: string;
  /** Epoch seconds. */
  createdAt: number;
  /** Seconds. */
  expiresIn: number;
  /** Seconds. */
  refreshTokenExpiresIn: number;
  idToken?: string;
}

export interface LoginOrganization {
  id: number;
  gloplaId: string;
  corporationOfficialName?: string;
}

export interface Me {
  id: number;
  firstName: string;
  lastName: string;
  middleName?: string;
  kanaFirstName?: string;
  kanaLastName?: string;
  email?: string;
  language?: string;
}

export interface SessionState {
  session: Session | null;
  isLoggedIn: boolean;
  organization: LoginOrganization | null;
  me: Me | null;
  role: Role;
}

export const initialSessionState: SessionState = {
  session: null,
  isLoggedIn: false,
  organization: null,
  me: null,
  role: DEFAULT_ROLE,
};

/** Pure: the session built from a token response (affiliations start empty). */
export function sessionFromTokenResponse(response: TokenResponse): Session {
  const createdMs = response.createdAt * 1000;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    token: response.accessToken,
    refreshToken: response.refreshToken,
    createdAt: iso(createdMs),
    expiredAt: iso(createdMs + response.expiresIn * 1000),
    refreshTokenExpiresAt: iso(createdMs + response.refreshTokenExpiresIn * 1000),
    affiliations: [],
  };
}

// Actions
export const SESSION_STORED = 'session/stored';
export const SESSION_CLEARED = 'session/cleared';
export const ORGANIZATION_SELECTED = 'session/organizationSelected';
export const ME_UPDATED = 'session/meUpdated';

export interface OrganizationSelection {
  organization: LoginOrganization;
  me: Me;
  role?: Role;
}

/** A new or refreshed session; the login context is kept. */
export const sessionStored = actionCreator<Session, typeof SESSION_STORED>(SESSION_STORED);
/** Sign-out or a failed refresh: session and login context are reset. */
export const sessionCleared = actionCreator<void, typeof SESSION_CLEARED>(SESSION_CLEARED);
/** Selecting an organisation sets organization, me and role (default member) and completes the login. */
export const organizationSelected = actionCreator<OrganizationSelection, typeof ORGANIZATION_SELECTED>(
  ORGANIZATION_SELECTED,
);

/** The signed-in admin's own data changed (e.g. their name): the fields given replace those in `me`. */
export const meUpdated = actionCreator<Partial<Me>, typeof ME_UPDATED>(ME_UPDATED);

export function sessionReducer(state: SessionState = initialSessionState, action: UnknownAction): SessionState {
  if (sessionStored.match(action)) return { ...state, session: action.payload };
  if (sessionCleared.match(action)) return initialSessionState;
  if (organizationSelected.match(action)) {
    const { organization, me, role } = action.payload;
    return { ...state, isLoggedIn: true, organization, me, role: role ?? DEFAULT_ROLE };
  }
  if (meUpdated.match(action)) return state.me ? { ...state, me: { ...state.me, ...action.payload } } : state;
  return state;
}

// Selectors
export interface SessionRootState {
  session: SessionState;
}

export const selectSession = (state: SessionRootState): Session | null => state.session.session;
export const hasSession = (state: SessionRootState): boolean => state.session.session !== null;
export const isLoggedIn = (state: SessionRootState): boolean => state.session.isLoggedIn;
export const selectOrganization = (state: SessionRootState): LoginOrganization | null => state.session.organization;
export const selectMe = (state: SessionRootState): Me | null => state.session.me;
export const selectRole = (state: SessionRootState): Role => state.session.role;
export const isManager = (state: SessionRootState): boolean => state.session.role === 'manager';
export const isMember = (state: SessionRootState): boolean => state.session.role === 'member';
export const organizationId = (state: SessionRootState): number | null => state.session.organization?.id ?? null;
export const gloplaId = (state: SessionRootState): string | null => state.session.organization?.gloplaId ?? null;
/** The access token sent as x-v2-admin-auth-token, or null when there is no session. */
export const accessToken = (state: SessionRootState): string | null => state.session.session?.token ?? null;

/**
 * Whether the session is held at Sign-in security (issue 44): its organisation requires two-step sign-in and it signed
 * in with a password only. Read from the access token's claims (the API verifies the token itself), so a refresh or a
 * second factor added brings the answer anew.
 */
export function isHeldAtSetup(state: SessionRootState): boolean {
  try {
    const claims = JSON.parse(atob(accessToken(state)!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { amr?: string[]; two_step_required?: boolean };
    return claims.two_step_required === true && !claims.amr?.includes('mfa');
  } catch {
    return false; // no session, or a token that is no JWT
  }
}
