/**
 * The audit trail of a request (issue 21): the signed-in admin acting in the organisation of the URL, limited to the
 * actions the route declares in its config (`config: { audit: ['contact.created'] }`). The handler passes the trail to
 * the domain function, which records inside the write's transaction (domain/audit.ts).
 */
import type { FastifyRequest } from 'fastify';
import { auditTrail, type AuditTrail } from '../domain/audit.js';
import { signedIn } from './auth.js';

/** The signed-in admin's (or API client's) trail in the organisation; without one, in every organisation the admin signed in to (account events). */
export function auditOf(request: FastifyRequest, organizationId?: number): AuditTrail {
  const { id, apiClient } = signedIn(request);
  // an API client's writes name the client (issue 46)
  if (apiClient) return auditTrail({ adminId: null, organizationId, apiClient: { id: apiClient.id, name: apiClient.name } }, request.routeOptions.config.audit ?? []);
  return actingAs(request, id, organizationId);
}

/** The trail of an actor known otherwise than by a token (sign-in, a link's admin), or of no one (null: an unauthenticated client). */
export function actingAs(request: FastifyRequest, adminId: number | null, organizationId?: number): AuditTrail {
  return auditTrail({ adminId, organizationId }, request.routeOptions.config.audit ?? []);
}
