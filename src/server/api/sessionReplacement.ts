/**
 * A new session in place of all the admin's others (SPEC 2.6's password change; issue 44 finding 1: a second factor
 * added or removed). Every grant, provider session and access token of the admin ends, then the provider's own grant
 * mints the caller's new session for the same organisation; the answer is the token response in the API's camelCase.
 */
import camelcaseKeys from 'camelcase-keys';
import type { FastifyInstance } from 'fastify';
import type { SessionAnswer } from '../../common/api/answers.js';
import type { Affiliation } from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { affiliationsOfAdmin } from '../domain/admins.js';
import type { SignedInAdmin } from './auth.js';
import { ApiError } from './errors.js';

/** The affiliation the new session is for: the current session's organisation while the admin belongs to it. */
export async function sessionAffiliation(app: FastifyInstance, admin: SignedInAdmin): Promise<Affiliation> {
  const affiliations = await affiliationsOfAdmin(app.db, admin.id);
  const affiliation = affiliations.find((candidate) => candidate.organization.gloplaId === admin.gloplaId) ?? affiliations[0];
  if (!affiliation) throw new ApiError(403, API_ERROR.forbidden);
  return affiliation;
}

/** How the new session signed in: its password entry, its methods (RFC 8176) and its last second step. */
export interface ReplacedSignIn {
  authTime: number;
  amr: string[];
  secondStepAt?: number;
}

export async function replaceSession(app: FastifyInstance, adminId: number, affiliation: Affiliation, signIn: ReplacedSignIn): Promise<SessionAnswer> {
  await app.identityProvider.revokeAdmin(adminId);
  const session = await app.identityProvider.replaceSession({ adminId, organizationId: affiliation.organization.id, gloplaId: affiliation.organization.gloplaId, ...signIn });
  return camelcaseKeys(session);
}

/** How the caller's session signed in, as the new one carries it on (a password only when the token says nothing). */
export function signInOf(admin: SignedInAdmin): ReplacedSignIn {
  const amr = admin.amr && admin.amr.length > 0 ? [...admin.amr] : ['pwd'];
  const secondStepAt = amr.includes('mfa') ? (admin.secondStepTime ?? admin.authTime) : undefined;
  return { authTime: admin.authTime ?? 0, amr, ...(secondStepAt !== undefined ? { secondStepAt } : {}) };
}
