/** Access decisions for the access classes of SPEC 2.1, as a pure function the Guard component applies. */
import type { AccessClass } from '../../common/screens.js';
import { SECURITY_PATH, SIGNIN_PATH } from '../state/constants.js';

export interface AccessContext {
  hasSession: boolean;
  /** The chosen organisation's gloplaId; a session without one must sign in again. */
  gloplaId: string | null;
  isManager: boolean;
  /** The organisation requires two-step sign-in and the session signed in with a password only (issue 44). */
  heldAtSetup?: boolean;
  /**
   * Where the visitor wanted to go. A guarded page sends it to sign-in as returnTo, which brings the admin back
   * after signing in (SPEC 2.1 'from'); a public page keeps it as 'from' in navigation state.
   */
  location: { pathname: string; search: string; hash?: string };
}

export type AccessDecision =
  | { kind: 'render' }
  | { kind: 'redirect'; to: string; replace: boolean; state?: { from: AccessContext['location'] } };

export const TOP_PATH = '/';

function signInFor(location: AccessContext['location']): AccessDecision {
  const returnTo = `${location.pathname}${location.search}`;
  return { kind: 'redirect', to: `${SIGNIN_PATH}?returnTo=${encodeURIComponent(returnTo)}`, replace: true };
}

export function decideAccess(access: AccessClass, context: AccessContext): AccessDecision {
  switch (access) {
    case 'unguarded':
      return { kind: 'render' };
    case 'public':
      return context.hasSession
        ? { kind: 'redirect', to: TOP_PATH, replace: true, state: { from: context.location } }
        : { kind: 'render' };
    case 'member':
    case 'admin': {
      if (!context.hasSession || !context.gloplaId) return signInFor(context.location);
      // every page waits until a second step is set up (and the session made with it), not only those the API refuses
      if (context.heldAtSetup && context.location.pathname !== SECURITY_PATH) return { kind: 'redirect', to: SECURITY_PATH, replace: true };
      if (access === 'admin' && !context.isManager) return { kind: 'redirect', to: TOP_PATH, replace: true };
      return { kind: 'render' };
    }
  }
}
