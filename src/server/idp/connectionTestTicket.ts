/**
 * The ticket of a manager's 'Test connection' (issue 45; the test itself is connectionTest.ts): random, kept as its
 * digest through the provider's adapter for 5 minutes, naming the connection, its organisation and the manager who
 * asked; its URL is opened by the /sso page in a new window and taken once there.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Adapter } from 'oidc-provider';
import { ISSUER_PATH } from '../../common/identity.js';

export const CONNECTION_TEST_PATH = `${ISSUER_PATH}/connection_test`;
export const TICKET_MODEL = 'ConnectionTestTicket';
export const TICKET_TTL_SECONDS = 5 * 60;

/** Who asked to test what (the ticket's payload). */
export interface TestTicket {
  organizationId: number;
  connectionId: string;
  adminId: number;
}

export const randomToken = (bytes: number) => randomBytes(bytes).toString('base64url');
/** The digest a ticket or a browser's cookie is kept as (base64url: a key the adapter's table takes). */
export const tokenDigest = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * A ticket for the manager to test the connection, as the URL to open. The caller checked that the manager manages
 * the connection's organisation and that the connection is complete.
 */
export async function issueConnectionTest(AdapterClass: new (model: string) => Adapter, publicUrl: string, ticket: TestTicket): Promise<{ testUrl: string; expiresAt: string }> {
  const secret = randomToken(32);
  await new AdapterClass(TICKET_MODEL).upsert(tokenDigest(secret), { ...ticket } as never, TICKET_TTL_SECONDS);
  return { testUrl: `${publicUrl}${CONNECTION_TEST_PATH}/${secret}`, expiresAt: new Date(Date.now() + TICKET_TTL_SECONDS * 1000).toISOString() };
}
