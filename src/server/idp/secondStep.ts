/**
 * A sign-in waiting for its second step (issue 29): the password was right, the code is still to come. Kept through
 * the provider's adapter as the model 'SecondStep', keyed by the interaction's uid, for as long as the step may take:
 * only that interaction continues it, and nothing signs in before the code.
 */
import type { Adapter } from 'oidc-provider';

type AdapterClass = new (model: string) => Adapter;

export interface PendingSecondStep {
  accountId: string;
  /** Epoch seconds of the password entry: the sign-in's time (auth_time) once the code is in. */
  passwordAt: number;
  /** Wrong codes at this step so far (SECOND_STEP_MAX_TRIES drops the step: the password again). */
  failures?: number;
}

const MODEL = 'SecondStep';
/** How long the code may take after the password. */
const SECOND_STEP_TTL_SECONDS = 10 * 60;

export async function savePendingSecondStep(Adapter: AdapterClass, uid: string, pending: PendingSecondStep): Promise<void> {
  await new Adapter(MODEL).upsert(uid, { ...pending } as never, SECOND_STEP_TTL_SECONDS);
}

export async function findPendingSecondStep(Adapter: AdapterClass, uid: string): Promise<PendingSecondStep | undefined> {
  const payload = (await new Adapter(MODEL).find(uid)) as Partial<PendingSecondStep> | undefined;
  if (!payload || typeof payload.accountId !== 'string' || typeof payload.passwordAt !== 'number') return undefined;
  return { accountId: payload.accountId, passwordAt: payload.passwordAt, failures: typeof payload.failures === 'number' ? payload.failures : 0 };
}

export async function deletePendingSecondStep(Adapter: AdapterClass, uid: string): Promise<void> {
  await new Adapter(MODEL).destroy(uid);
}
