/**
 * The organisation an admin chose for a grant ("Select Your Organization"), stored through the provider's adapter
 * as the model 'OrganizationChoice' keyed by the grant id: it lives and dies with the grant (revokeByGrantId deletes
 * it too) and is what the ID token's and access token's `glopla_id` say.
 *
 * A session replaced by the provider's own grant (a password change, a second factor added or removed) also keeps here
 * the time of its last second step: its auth_time says when the password was last entered, which is not when the
 * second step was last made (issue 44 finding 1), and the access token's `mfa_time` must not grow with it.
 */
import type { Adapter } from 'oidc-provider';

export interface OrganizationChoice {
  organizationId: number;
  gloplaId: string;
  /** Epoch seconds of the session's last second step, when the session was not made by a sign-in (see above). */
  secondStepAt?: number;
  /** The single-sign-on connection the session was signed in through (issue 45): the access token's `sso_connection`. */
  ssoConnectionId?: string;
}

type AdapterClass = new (model: string) => Adapter;

export const ORGANIZATION_CHOICE_MODEL = 'OrganizationChoice';

export async function saveOrganizationChoice(
  Adapter: AdapterClass,
  grantId: string,
  accountId: string,
  choice: OrganizationChoice,
  ttlSeconds: number,
): Promise<void> {
  await new Adapter(ORGANIZATION_CHOICE_MODEL).upsert(grantId, { grantId, accountId, ...choice } as never, ttlSeconds);
}

export async function findOrganizationChoice(Adapter: AdapterClass, grantId: string): Promise<OrganizationChoice | undefined> {
  const payload = (await new Adapter(ORGANIZATION_CHOICE_MODEL).find(grantId)) as Partial<OrganizationChoice> | undefined;
  if (!payload || typeof payload.organizationId !== 'number' || typeof payload.gloplaId !== 'string') return undefined;
  const { organizationId, gloplaId, secondStepAt, ssoConnectionId } = payload;
  return {
    organizationId,
    gloplaId,
    ...(typeof secondStepAt === 'number' ? { secondStepAt } : {}),
    ...(typeof ssoConnectionId === 'string' ? { ssoConnectionId } : {}),
  };
}
