/** Registration requests (usage applications, SPEC §2.16): a company asks for a corporate account. */
import type { Forms } from '../../common/api/forms.js';
import type { Db } from '../db/index.js';
import type { RegistrationRequest } from '../db/types.js';

/** The form's values, already validated against schemas/registration-request.json. */
export type RegistrationRequestInput = Forms['registration-request'];

export async function createRegistrationRequest(db: Db, input: RegistrationRequestInput): Promise<RegistrationRequest> {
  return db
    .insertInto('registrationRequests')
    .values({
      corporationName: input.corporationName,
      departments: input.departments,
      position: emptyToNull(input.position),
      personInCharge: input.personInCharge,
      phoneNumber: input.phoneNumber,
      email: input.email,
      zipCode: input.zipCode,
      address: input.address,
      corporationUrl: emptyToNull(input.corporationUrl),
      scaleOfEmployees: input.scaleOfEmployees,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

function emptyToNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}
