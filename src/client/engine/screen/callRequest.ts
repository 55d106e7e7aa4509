/**
 * Where a screen's call goes: method, filled path, version and query. One function for the call itself (calls.ts) and
 * the route's preload (preload.ts), so a preloaded answer is the one the screen asks for (same key); and how a call
 * ended, as both report it.
 */
import type { CallDefinition } from '../../../common/screens.js';
import { apiUrl, isApiError } from '../../api/http.js';
import { organizationId, type SessionRootState } from '../../state/session.js';
import { resolveValues, type ScreenContext } from './values.js';

export interface CallTarget {
  method: NonNullable<CallDefinition['method']>;
  path: string;
  version: CallDefinition['version'];
  query: Record<string, string>;
}

/** How a call ended: its status and body (the answer, or the error's body). */
export interface CallResult {
  ok: boolean;
  status?: number;
  code?: string;
  body?: unknown;
  error?: unknown;
}

export function errorResult(error: unknown): CallResult {
  return isApiError(error) ? { ok: false, status: error.status, code: error.code, body: error.body, error } : { ok: false, error };
}

/**
 * Placeholders in a call's path, e.g. 'organizations/:orgId/affiliations/admins/:adminId': filled from the route's
 * parameters, else from the session by the names below. One nothing fills is an error (the screen and the route
 * disagree).
 */
export const SESSION_PATH_PARAMS: Record<string, (state: SessionRootState) => string | number | null | undefined> = {
  /** The selected organisation's id. */
  orgId: organizationId,
  /** The signed-in admin's id. */
  adminId: (state) => state.session.me?.id,
};

export function fillPath(path: string, params: Record<string, string | undefined>, state: SessionRootState): string {
  return path.replace(/:([a-zA-Z][a-zA-Z0-9]*)/g, (_match, name: string) => {
    const value = params[name] ?? SESSION_PATH_PARAMS[name]?.(state);
    if (value === undefined || value === null || value === '') throw new Error(`submit path ${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/** The call's target in this context (its `instead` already chosen); throws when the path has a placeholder nothing fills. */
export function callTarget(definition: CallDefinition, context: Partial<ScreenContext>, state: SessionRootState): CallTarget {
  const values = { ...context.params, ...resolveValues(definition.params, context) } as Record<string, string | undefined>;
  return {
    method: definition.method ?? 'GET',
    path: fillPath(definition.path, values, state),
    version: definition.version,
    query: resolveValues(definition.query, context) as Record<string, string>,
  };
}

/** The same key for the same request: method and URL. */
export const targetKey = (target: CallTarget) => `${target.method} ${apiUrl(target.version ?? 'v2', target.path, target.query)}`;
