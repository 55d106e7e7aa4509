/**
 * What the API answers (SPEC §7), as JSON Schemas with camelCase keys and the TypeScript types computed from them
 * (json-schema-to-ts). The server documents and serialises each schema in its wire rendering (snake_case); the
 * browser receives the camelCase shape, so both read the same type: a changed answer breaks the typecheck, not the
 * page.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

export const ROLES = ['manager', 'member'] as const;

export const organizationSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'integer' }, gloplaId: { type: 'string' }, corporationOfficialName: { type: 'string' } },
  required: ['id', 'gloplaId', 'corporationOfficialName'],
} as const satisfies JSONSchema;

/** An admin as an affiliation shows it (SPEC §3 Affiliation). */
export const affiliationAdminSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    kanaFirstName: { type: 'string' },
    kanaLastName: { type: 'string' },
    email: { type: 'string' },
  },
  required: ['id', 'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'],
} as const satisfies JSONSchema;

export const affiliationSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { role: { type: 'string', enum: ROLES }, organization: organizationSchema, admin: affiliationAdminSchema },
  required: ['role', 'organization', 'admin'],
} as const satisfies JSONSchema;

export type Organization = FromSchema<typeof organizationSchema>;
export type AffiliationAdmin = FromSchema<typeof affiliationAdminSchema>;
export type Affiliation = FromSchema<typeof affiliationSchema>;

/** GET admins/me/affiliations */
export const affiliationsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { affiliations: { type: 'array', items: affiliationSchema } },
  required: ['affiliations'],
} as const satisfies JSONSchema;
export type AffiliationsAnswer = FromSchema<typeof affiliationsAnswerSchema>;

/**
 * An admin as the organisation's admin list shows it (SPEC 2.13): activatedAt is null until the admin activates
 * (the 'not activated' mark); a not-activated admin's invitation is the newest open activation link, with its expiry.
 */
export const memberAdminSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...affiliationAdminSchema.properties,
    activatedAt: { type: ['string', 'null'], format: 'date-time', description: 'null: not activated yet' },
    invitationExpiresAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: "a not-activated admin's newest open invitation (activation link): when it expires; null when there is none (or the admin is activated)",
    },
    invitationExpired: { type: 'boolean', description: 'true: not activated, and no invitation is open any more (expired or never sent)' },
  },
  required: [...affiliationAdminSchema.required, 'activatedAt', 'invitationExpiresAt', 'invitationExpired'],
} as const satisfies JSONSchema;
export type MemberAdmin = FromSchema<typeof memberAdminSchema>;

/** An affiliation of the organisation's admin list (SPEC 2.13, §3 Affiliation). */
export const organizationAffiliationSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { role: { type: 'string', enum: ROLES }, organization: organizationSchema, admin: memberAdminSchema },
  required: ['role', 'organization', 'admin'],
} as const satisfies JSONSchema;
export type OrganizationAffiliation = FromSchema<typeof organizationAffiliationSchema>;

/** GET organizations/{orgId}/affiliations: managers first, then by kana name and e-mail. */
export const organizationAffiliationsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { affiliations: { type: 'array', items: organizationAffiliationSchema } },
  required: ['affiliations'],
} as const satisfies JSONSchema;
export type OrganizationAffiliationsAnswer = FromSchema<typeof organizationAffiliationsAnswerSchema>;

/**
 * PATCH organizations/{orgId}/affiliations/admins/{adminId} (the own name, or another admin's role) and
 * POST …/admins/{adminId}/invitation: the affiliation as the list shows it, to replace the list entry (SPEC §4).
 */
export const affiliationAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { affiliation: organizationAffiliationSchema },
  required: ['affiliation'],
} as const satisfies JSONSchema;
export type AffiliationAnswer = FromSchema<typeof affiliationAnswerSchema>;

export const INVITE_OUTCOMES = ['joined', 'invited'] as const;

/**
 * POST organizations/{orgId}/affiliations (SPEC §4 Invite outcomes): 'joined' — an activated admin joined at once;
 * 'invited' — an invitation mail went to a not-activated admin, who joins on activation.
 */
export const inviteAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { affiliation: organizationAffiliationSchema, outcome: { type: 'string', enum: INVITE_OUTCOMES } },
  required: ['affiliation', 'outcome'],
} as const satisfies JSONSchema;
export type InviteAnswer = FromSchema<typeof inviteAnswerSchema>;

/** A product admin role (SPEC §3, 2.14), in the reader's language. */
export const productAdminRoleSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { productName: { type: 'string' }, role: { type: 'string' }, helpUrl: { type: 'string', description: "the 'about role' link" } },
  required: ['productName', 'role', 'helpUrl'],
} as const satisfies JSONSchema;
export type ProductAdminRole = FromSchema<typeof productAdminRoleSchema>;

/** GET organizations/{orgId}/product_admin_roles */
export const productAdminRolesAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { productAdminRoles: { type: 'array', items: productAdminRoleSchema } },
  required: ['productAdminRoles'],
} as const satisfies JSONSchema;
export type ProductAdminRolesAnswer = FromSchema<typeof productAdminRolesAnswerSchema>;

/** GET admin/re_authentication_expiration */
export const reauthenticationAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { isReAuthenticationExpired: { type: 'boolean', description: 'true: the password must be entered again' } },
  required: ['isReAuthenticationExpired'],
} as const satisfies JSONSchema;
export type ReauthenticationAnswer = FromSchema<typeof reauthenticationAnswerSchema>;

/** A new session, as the token endpoint answers it (SPEC §3 Session, §7 Token exchange): PUT admins/{adminId}/password. */
export const sessionAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    accessToken: { type: 'string' },
    refreshToken: { type: 'string' },
    idToken: { type: 'string' },
    tokenType: { type: 'string' },
    expiresIn: { type: 'integer', description: 'seconds' },
    scope: { type: 'string' },
    createdAt: { type: 'integer', description: 'epoch seconds' },
    refreshTokenExpiresIn: { type: 'integer', description: 'seconds' },
  },
  required: ['accessToken', 'refreshToken', 'tokenType', 'expiresIn', 'createdAt', 'refreshTokenExpiresIn'],
} as const satisfies JSONSchema;
export type SessionAnswer = FromSchema<typeof sessionAnswerSchema>;

/** The admin a mailed token belongs to: the activation check answers the names, the reset check only the id. */
export const tokenAdminAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    admin: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'integer' },
        email: { type: 'string' },
        firstName: { type: 'string' },
        lastName: { type: 'string' },
        kanaFirstName: { type: 'string' },
        kanaLastName: { type: 'string' },
      },
      required: ['id'],
    },
  },
  required: ['admin'],
} as const satisfies JSONSchema;
export type TokenAdminAnswer = FromSchema<typeof tokenAdminAnswerSchema>;
export type TokenAdmin = TokenAdminAnswer['admin'];

/** A service as the Home grid shows it (SPEC §3 Service), in the reader's language. */
export const serviceCardSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    subtitle: { type: 'string' },
    summary: { type: 'string' },
    thumbnailUrl: { type: ['string', 'null'] },
    serviceGroup: {
      type: 'object',
      additionalProperties: false,
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
      required: ['id', 'name'],
    },
  },
  required: ['id', 'name', 'subtitle', 'summary', 'thumbnailUrl', 'serviceGroup'],
} as const satisfies JSONSchema;
export type ServiceCard = FromSchema<typeof serviceCardSchema>;

/** GET services */
export const servicesAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { services: { type: 'array', items: serviceCardSchema } },
  required: ['services'],
} as const satisfies JSONSchema;
export type ServicesAnswer = FromSchema<typeof servicesAnswerSchema>;

/** GET notices (v1): a notice in both languages (SPEC §3 Notice). */
export const noticeSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'integer' }, target: { type: 'string' }, contentJa: { type: 'string' }, contentEn: { type: 'string' } },
  required: ['id', 'target', 'contentJa', 'contentEn'],
} as const satisfies JSONSchema;
export type Notice = FromSchema<typeof noticeSchema>;

export const noticesAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { notices: { type: 'array', items: noticeSchema } },
  required: ['notices'],
} as const satisfies JSONSchema;
export type NoticesAnswer = FromSchema<typeof noticesAnswerSchema>;

/** GET enabled_feature_flags/{name} */
export const featureFlagAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { enabled: { type: 'boolean' } },
  required: ['enabled'],
} as const satisfies JSONSchema;
export type FeatureFlagAnswer = FromSchema<typeof featureFlagAnswerSchema>;

/** The answer of a call that has nothing to tell but success. */
export const emptyAnswerSchema = { type: 'object', additionalProperties: false, properties: {} } as const satisfies JSONSchema;

/** POST registration_requests: the stored application (SPEC 2.16); fields left empty are null. */
export const registrationRequestAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    registrationRequest: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'integer' },
        corporationName: { type: 'string' },
        departments: { type: 'string' },
        position: { type: ['string', 'null'] },
        personInCharge: { type: 'string' },
        phoneNumber: { type: 'string' },
        email: { type: 'string' },
        zipCode: { type: 'string' },
        address: { type: 'string' },
        corporationUrl: { type: ['string', 'null'] },
        scaleOfEmployees: { type: 'string' },
        createdAt: { type: 'string', format: 'date-time' },
      },
      required: ['id', 'corporationName', 'departments', 'position', 'personInCharge', 'phoneNumber', 'email', 'zipCode', 'address', 'corporationUrl', 'scaleOfEmployees', 'createdAt'],
    },
  },
  required: ['registrationRequest'],
} as const satisfies JSONSchema;
export type RegistrationRequestAnswer = FromSchema<typeof registrationRequestAnswerSchema>;
