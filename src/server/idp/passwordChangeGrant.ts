/**
 * A new session after a password change (SPEC 2.6: `PUT admins/{adminId}/password` answers with a token response).
 *
 * oidc-provider's maintainers advise minting tokens through a registered grant type rather than building token
 * objects outside the token endpoint, so this is one: `grant_type=urn:…:password-change&ticket=…`. The API route
 * checks the current password, stores the new one, revokes the admin's grants, then asks the token endpoint (an
 * in-process request) for a session with a one-time ticket it just issued. Only the holder of a fresh, unused
 * ticket gets tokens; a ticket lives 60 seconds and is deleted on first use.
 *
 * The new session is a new grant for the same organisation; its auth_time is the moment the current password was
 * checked, so a password change counts as 'password just entered' for re-authentication.
 *
 * The same grant replaces the session when the admin adds or removes a second factor (issue 44 finding 1: the admin's
 * other sessions end). A replaced session never says more than it proved: its amr is what the caller gives, and the
 * time of its last second step (mfa_time) is kept apart from auth_time, so a password change does not make an old
 * second step recent.
 */
import { createHash, randomBytes } from 'node:crypto';
import { errors, type Adapter, type KoaContextWithOIDC } from 'oidc-provider';
import { ACR, API_SCOPES, SUPPORTED_SCOPES } from './constants.js';
import { saveOrganizationChoice } from './organizationChoice.js';

export const PASSWORD_CHANGE_GRANT = 'urn:corporate-admin-portal:params:oauth:grant-type:password-change';
export const PASSWORD_CHANGE_PARAMS = ['ticket'];
export const TICKET_MODEL = 'PasswordChangeTicket';
export const TICKET_TTL_SECONDS = 60;

type AdapterClass = new (model: string) => Adapter;

export interface PasswordChangeTicket {
  accountId: string;
  clientId: string;
  organizationId: number;
  gloplaId: string;
  /** Epoch seconds of the password check. */
  authTime: number;
  /** How the session being replaced signed in (RFC 8176): a two-step session stays one (issue 29). */
  amr: string[];
  /** Epoch seconds of the session's last second step, when it made one (the access token's mfa_time). */
  secondStepAt?: number;
}

/** The ticket's amr, as stored (a list of method names; a password at least). */
const amrOf = (data: Record<string, unknown>): string[] => (Array.isArray(data.amr) && data.amr.every((method) => typeof method === 'string') && data.amr.length > 0 ? (data.amr as string[]) : ['pwd']);

const ticketId = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/** A one-time ticket for the password-change grant (only its hash is stored). */
export async function issuePasswordChangeTicket(Adapter: AdapterClass, data: PasswordChangeTicket): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await new Adapter(TICKET_MODEL).upsert(ticketId(ticket), { ...data } as never, TICKET_TTL_SECONDS);
  return ticket;
}

export interface PasswordChangeGrantOptions {
  Adapter: AdapterClass;
  audience: string;
  resourceServerInfo: () => Record<string, unknown>;
}

export function passwordChangeGrant({ Adapter, audience, resourceServerInfo }: PasswordChangeGrantOptions) {
  return async function passwordChangeGrantHandler(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    const ticket = ctx.oidc.params?.ticket;
    if (typeof ticket !== 'string' || ticket === '') throw new errors.InvalidRequest('missing required parameter(s) (ticket)');
    const tickets = new Adapter(TICKET_MODEL);
    const id = ticketId(ticket);
    const data = (await tickets.find(id)) as Partial<PasswordChangeTicket> | undefined;
    if (!data) throw new errors.InvalidGrant('password change ticket not found or expired');
    await tickets.destroy(id);

    const { provider, client } = ctx.oidc;
    if (!client || data.clientId !== client.clientId) throw new errors.InvalidGrant('client mismatch');
    const accountId = String(data.accountId);
    const account = await provider.Account.findAccount(ctx, accountId);
    if (!account) throw new errors.InvalidGrant('account not found');
    ctx.oidc.entity('Account', account);

    const scope = SUPPORTED_SCOPES.join(' ');
    const apiScope = API_SCOPES.join(' ');
    const grant = new provider.Grant({ accountId, clientId: client.clientId });
    grant.addOIDCScope(scope);
    grant.addResourceScope(audience, apiScope);
    const grantId = await grant.save();
    ctx.oidc.entity('Grant', grant);
    const grantTtl = Math.max(1, (grant.exp ?? 0) - Math.floor(Date.now() / 1000));
    // a two-step session always keeps its second step's time here (unknown: long ago), or auth_time would stand for it
    const secondStepAt = amrOf(data).includes('mfa') ? { secondStepAt: typeof data.secondStepAt === 'number' ? data.secondStepAt : 0 } : {};
    await saveOrganizationChoice(Adapter, grantId, accountId, { organizationId: Number(data.organizationId), gloplaId: String(data.gloplaId), ...secondStepAt }, grantTtl);

    const gty = PASSWORD_CHANGE_GRANT;
    const amr = amrOf(data);
    const acr = amr.includes('mfa') ? ACR.twoStep : ACR.password;
    const refreshToken = new provider.RefreshToken({
      accountId,
      client,
      grantId,
      gty,
      authTime: data.authTime,
      amr,
      acr,
      scope,
      resource: audience,
      rotations: 0,
    } as never);
    // set before the access token is made: extraTokenClaims reads auth_time from it
    ctx.oidc.entity('RefreshToken', refreshToken);

    const accessToken = new provider.AccessToken({ accountId, client, grantId, gty } as never);
    // ResourceServer is on the provider at runtime (lib/provider.js) though the types omit it
    const { ResourceServer } = provider as unknown as { ResourceServer: new (identifier: string, info: unknown) => NonNullable<typeof accessToken.resourceServer> };
    accessToken.resourceServer = new ResourceServer(audience, resourceServerInfo());
    accessToken.scope = apiScope;
    ctx.oidc.entity('AccessToken', accessToken);
    const accessTokenValue = await accessToken.save();
    const refreshTokenValue = await refreshToken.save();

    const idToken = new provider.IdToken({ ...(await account.claims('id_token', scope, {}, [])), auth_time: data.authTime, amr, acr }, { ctx });
    (idToken as unknown as { scope: string }).scope = scope;
    idToken.set('at_hash', accessTokenValue);

    ctx.body = {
      access_token: accessTokenValue,
      expires_in: accessToken.expiration,
      id_token: await idToken.issue({ use: 'idtoken' }),
      refresh_token: refreshTokenValue,
      scope: apiScope,
      token_type: accessToken.tokenType,
    };
    await next();
  };
}
