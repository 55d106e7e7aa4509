/**
 * The organisation an admin chose for a grant ("Select Your Organization"), stored through the provider's adapter
 * as the model 'OrganizationChoice' keyed by the grant id: it lives and dies with the grant (revokeByGrantId deletes
 * it too) and is what the ID token's and access token's `glopla_id` say.
 */
import type { Adapter } from 'oidc-provider';

export interface OrganizationChoice {
  organizationId: number;
  gloplaId: string;
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
  return { organizationId: payload.organizationId, gloplaId: payload.gloplaId };
}
