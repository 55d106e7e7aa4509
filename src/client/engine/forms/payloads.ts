/**
 * Named payload rules a form may apply to its data before sending it (FormDefinition.transform): pure functions of
 * the data and values of the screen context. `npm run check:config` checks the names (PAYLOAD_NAMES).
 */
import type { SubscriptionPayloadOptions } from '../../../common/subscriptionPayload.js';

type Payload = (data: Record<string, unknown>, values: Record<string, unknown>) => Promise<Record<string, unknown>>;

export const payloads: Record<string, Payload> = {
  /**
   * SPEC §7 'Subscription payload rules'; values: mode (create, update) and the snapshot's contactId and
   * billingContactId. Loaded on use: its business-day calendar (moment) stays out of the first load.
   */
  subscription: async (data, values) => {
    const { subscriptionPayload } = await import(/* webpackChunkName: "payload-subscription" */ '../../../common/subscriptionPayload.js');
    return subscriptionPayload(data, {
      mode: values.mode === 'update' ? 'update' : 'create',
      snapshot: { contactId: values.contactId, billingContactId: values.billingContactId },
    } satisfies SubscriptionPayloadOptions);
  },
};

export const PAYLOAD_NAMES = Object.keys(payloads);

export async function applyPayload(name: string, data: Record<string, unknown>, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const payload = payloads[name];
  if (!payload) throw new Error(`unknown payload rule "${name}"`);
  return payload(data, values);
}
