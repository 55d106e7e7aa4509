/**
 * The events a screen's outcome may dispatch (Outcome.event: an action type with the answer as payload), each handled
 * by a feature's saga. Kept free of React so the configuration check can read it.
 */
export const SCREEN_EVENTS = {
  /** The answer holds the affiliation with the admin's new name (features/account). */
  nameUpdated: 'account/nameUpdated',
  /** The answer is a new session (features/auth). */
  sessionReplaced: 'auth/sessionReplaced',
} as const;
