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

/** A link of a service or a service group (SPEC §3 Link category), rewritten for the caller (SPEC §7). */
export const serviceLinkSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url: { type: 'string' },
    category: { type: 'string', enum: ['description', 'purchase', 'history', 'admin', 'terms', 'other_sso'] },
    label: { type: 'string' },
  },
  required: ['url', 'category', 'label'],
} as const satisfies JSONSchema;
export type ServiceLinkAnswer = FromSchema<typeof serviceLinkSchema>;

const serviceLinksSchema = {
  type: 'array',
  items: serviceLinkSchema,
  description: "links in their order; a member gets only the categories description, admin and other_sso (SPEC §6)",
} as const satisfies JSONSchema;

/** A service's group as a service names it (SPEC §3 Service.serviceGroup). */
export const serviceGroupRefSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'integer' }, name: { type: 'string' }, urls: serviceLinksSchema },
  required: ['id', 'name', 'urls'],
} as const satisfies JSONSchema;

/** A service of a group (SPEC §3 Service, §9 discontinuation), in the reader's language. */
export const serviceSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    subtitle: { type: 'string', description: 'the term (single-choice groups) or the subject (multi-select groups)' },
    summary: { type: 'string', description: 'one paragraph per line' },
    description: { type: 'string' },
    thumbnailUrl: { type: ['string', 'null'] },
    imageUrl: { type: ['string', 'null'] },
    discontinued: { type: 'boolean' },
    lastStartsOn: { type: ['string', 'null'], format: 'date', description: 'the last start date an application may have (SPEC §9); null: none' },
    urls: serviceLinksSchema,
    serviceGroup: serviceGroupRefSchema,
  },
  required: ['id', 'name', 'subtitle', 'summary', 'description', 'thumbnailUrl', 'imageUrl', 'discontinued', 'lastStartsOn', 'urls', 'serviceGroup'],
} as const satisfies JSONSchema;
export type Service = FromSchema<typeof serviceSchema>;

/** GET services/{id}: Service Details (SPEC 2.8). */
export const serviceAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { service: serviceSchema },
  required: ['service'],
} as const satisfies JSONSchema;
export type ServiceAnswer = FromSchema<typeof serviceAnswerSchema>;

/** A service group (SPEC §1, §3 Service group, §5 user limits and class size). */
export const serviceGroupSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    identifier: { type: 'string', description: 'hodai, emba, hodaiplus, gls, school, gmap, gu, newhodaiplus or newemba' },
    name: { type: 'string' },
    selection: { type: 'string', enum: ['single', 'multi'], description: "single: one of the group's services (a term); multi: several (subjects)" },
    maximumUsers: { type: ['integer', 'null'], description: 'the most users an application may have (multi: subjects × participants); null: no limit' },
    classSize: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: { minimum: { type: 'integer' }, maximum: { type: 'integer' } },
      required: ['minimum', 'maximum'],
      description: 'gls: the number of learners of a class; null for the other groups',
    },
    urls: serviceLinksSchema,
  },
  required: ['id', 'identifier', 'name', 'selection', 'maximumUsers', 'classSize', 'urls'],
} as const satisfies JSONSchema;
export type ServiceGroup = FromSchema<typeof serviceGroupSchema>;

/** GET service_groups */
export const serviceGroupsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { serviceGroups: { type: 'array', items: serviceGroupSchema } },
  required: ['serviceGroups'],
} as const satisfies JSONSchema;
export type ServiceGroupsAnswer = FromSchema<typeof serviceGroupsAnswerSchema>;

/** GET service_groups/{id} */
export const serviceGroupAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { serviceGroup: serviceGroupSchema },
  required: ['serviceGroup'],
} as const satisfies JSONSchema;
export type ServiceGroupAnswer = FromSchema<typeof serviceGroupAnswerSchema>;

/** GET service_groups/{id}/services */
export const groupServicesAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { services: { type: 'array', items: serviceSchema } },
  required: ['services'],
} as const satisfies JSONSchema;
export type GroupServicesAnswer = FromSchema<typeof groupServicesAnswerSchema>;

/** SPEC §3 Project: an organisation's training project. */
export const projectSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { projectCode: { type: 'string' }, name: { type: 'string' } },
  required: ['projectCode', 'name'],
} as const satisfies JSONSchema;

/** SPEC §3 Project class: a class of a project (projectCode names it). */
export const projectClassSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'integer' }, name: { type: 'string' }, projectCode: { type: 'string' }, code: { type: 'string' } },
  required: ['id', 'name', 'projectCode', 'code'],
} as const satisfies JSONSchema;
export type ProjectClass = FromSchema<typeof projectClassSchema>;

/** GET organizations/{orgId}/project_classes/bundled: the organisation's classes, bundled and gls (SPEC §3 Organization.projectClass). */
export const projectClassesAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    projectClasses: {
      type: 'object',
      additionalProperties: false,
      properties: { bundled: { type: 'array', items: projectClassSchema }, gls: { type: 'array', items: projectClassSchema } },
      required: ['bundled', 'gls'],
    },
    projects: { type: 'array', items: projectSchema, description: 'the projects the classes belong to' },
  },
  required: ['projectClasses', 'projects'],
} as const satisfies JSONSchema;
export type ProjectClassesAnswer = FromSchema<typeof projectClassesAnswerSchema>;

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

/** GET announcements/articles: an announcement article in the asked language (SPEC §3 Announcement article, §7 Content). */
export const announcementArticleSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    /** ISO 8601. */
    publishedAt: { type: 'string', format: 'date-time' },
    body: { type: 'string' },
    /** Where the whole article is, when it lives elsewhere. */
    url: { type: ['string', 'null'] },
  },
  required: ['id', 'title', 'publishedAt', 'body', 'url'],
} as const satisfies JSONSchema;
export type AnnouncementArticle = FromSchema<typeof announcementArticleSchema>;

export const announcementArticlesAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { articles: { type: 'array', items: announcementArticleSchema } },
  required: ['articles'],
} as const satisfies JSONSchema;
export type AnnouncementArticlesAnswer = FromSchema<typeof announcementArticlesAnswerSchema>;

/**
 * GET portal_settings: the server's settings the browser needs at run time, in one answer (README Configuration).
 * supportChat is absent when no support chat is configured.
 */
export const portalSettingsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** The page the announcements icon opens: an absolute URL or a path of the portal; `{lang}` stands for the language. */
    announcementPageUrl: { type: 'string' },
    supportChat: {
      type: 'object',
      additionalProperties: false,
      properties: {
        scriptUrl: { type: 'string' },
        keys: {
          type: 'object',
          additionalProperties: false,
          properties: { ja: { type: 'string' }, en: { type: 'string' } },
          required: ['ja', 'en'],
        },
      },
      required: ['scriptUrl', 'keys'],
    },
  },
  required: ['announcementPageUrl'],
} as const satisfies JSONSchema;
export type PortalSettingsAnswer = FromSchema<typeof portalSettingsAnswerSchema>;

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

/** GET admin/single-sign-on (SPEC §3 Single-sign-on tokens): what the browser carries to the partner (README 'Single-sign-on gateway'). */
export const singleSignOnAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    authUrl: { type: 'string', description: "The partner's sign-in URL the browser goes to with the fields below and goi" },
    guq: { type: 'string', description: 'One-time token id (base64url); accepted once by POST single-sign-on/verify' },
    gss: { type: 'string', description: "The partner's state (gss of the request), unchanged" },
    gui: { type: 'string', description: "The admin's id" },
    gsg: { type: 'string', description: "base64url HMAC-SHA256 of the canonical string with the partner's secret" },
    ghs: { type: 'string', description: 'Expiry, epoch seconds: accepted while now < ghs (at most 60 s after issue)' },
    gul: { type: 'string', enum: ['ja', 'en'], description: 'Language (gul of the request, default ja)' },
    productId: { type: 'integer', description: "The partner product's id; 4 also carries projectId and projectCode" },
  },
  required: ['authUrl', 'guq', 'gss', 'gui', 'gsg', 'ghs', 'gul', 'productId'],
} as const satisfies JSONSchema;
export type SingleSignOnAnswer = FromSchema<typeof singleSignOnAnswerSchema>;

/** POST single-sign-on/verify: who arrived at the partner with these tokens (now used). */
export const singleSignOnArrivalSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    gui: { type: 'string', description: "The admin's id" },
    goi: { type: 'string', description: "The organisation's gloplaId" },
    gul: { type: 'string', description: 'Language' },
    email: { type: 'string', description: "The admin's e-mail address" },
  },
  required: ['gui', 'goi', 'gul', 'email'],
} as const satisfies JSONSchema;
export type SingleSignOnArrival = FromSchema<typeof singleSignOnArrivalSchema>;

/** SPEC §3 Contact: a delivery address of the organisation (record fields). */
export const contactSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    organizationId: { type: 'integer' },
    corporationName: { type: 'string' },
    departmentName: { type: 'string' },
    postalCode: { type: 'string' },
    address: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    kanaFirstName: { type: 'string' },
    kanaLastName: { type: 'string' },
    phoneNumber: { type: 'string' },
    email: { type: 'string' },
  },
  required: ['id', 'organizationId', 'corporationName', 'departmentName', 'postalCode', 'address', 'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'phoneNumber', 'email'],
} as const satisfies JSONSchema;
export type Contact = FromSchema<typeof contactSchema>;

/** GET organizations/{orgId}/contacts: the organisation's contacts, oldest first. */
export const contactsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { contacts: { type: 'array', items: contactSchema } },
  required: ['contacts'],
} as const satisfies JSONSchema;
export type ContactsAnswer = FromSchema<typeof contactsAnswerSchema>;

/** GET, POST, PATCH organizations/{orgId}/contacts[/{id}]. */
export const contactAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { contact: contactSchema },
  required: ['contact'],
} as const satisfies JSONSchema;
export type ContactAnswer = FromSchema<typeof contactAnswerSchema>;

/** SPEC §3 Billing contact (record fields): email is the 'To e-mail'; ccEmail and addressee are '' when blank. */
export const billingContactSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    organizationId: { type: 'integer' },
    corporationName: { type: 'string' },
    departmentName: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    kanaFirstName: { type: 'string' },
    kanaLastName: { type: 'string' },
    phoneNumber: { type: 'string' },
    email: { type: 'string' },
    ccEmail: { type: 'string' },
    addressee: { type: 'string', description: 'blank: the company name is printed on the invoice' },
  },
  required: ['id', 'organizationId', 'corporationName', 'departmentName', 'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'phoneNumber', 'email', 'ccEmail', 'addressee'],
} as const satisfies JSONSchema;
export type BillingContact = FromSchema<typeof billingContactSchema>;

/** GET organizations/{orgId}/billing_contacts: the organisation's billing contacts, oldest first. */
export const billingContactsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { billingContacts: { type: 'array', items: billingContactSchema } },
  required: ['billingContacts'],
} as const satisfies JSONSchema;
export type BillingContactsAnswer = FromSchema<typeof billingContactsAnswerSchema>;

/** GET, POST, PATCH organizations/{orgId}/billing_contacts[/{id}]. */
export const billingContactAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { billingContact: billingContactSchema },
  required: ['billingContact'],
} as const satisfies JSONSchema;
export type BillingContactAnswer = FromSchema<typeof billingContactAnswerSchema>;

/** A learner of the organisation (SPEC §3 Organisation user; 2.15 Users). */
export const organizationUserSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    lastName: { type: 'string' },
    firstName: { type: 'string' },
    kanaLastName: { type: 'string' },
    kanaFirstName: { type: 'string' },
    email: { type: 'string' },
    nameId: { type: 'string' },
    nameIdType: { type: ['string', 'null'], enum: ['email', 'nameId', null], description: 'null: no identity provider specified' },
  },
  required: ['id', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email', 'nameId', 'nameIdType'],
} as const satisfies JSONSchema;
export type OrganizationUser = FromSchema<typeof organizationUserSchema>;

/** GET organizations/{orgId}/users, POST …/users/preview and …/users/bulk_update. */
export const organizationUsersAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { users: { type: 'array', items: organizationUserSchema } },
  required: ['users'],
} as const satisfies JSONSchema;
export type OrganizationUsersAnswer = FromSchema<typeof organizationUsersAnswerSchema>;

/** PATCH organizations/{orgId}/users/{userId}. */
export const organizationUserAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { user: organizationUserSchema },
  required: ['user'],
} as const satisfies JSONSchema;
export type OrganizationUserAnswer = FromSchema<typeof organizationUserAnswerSchema>;

/** A row error of the learner CSV (SPEC §7 Users): rowNo is the CSV line (the header is line 1). */
export const userRowErrorSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    field: { type: 'string' },
    code: { type: 'string' },
    meta: { type: 'object', additionalProperties: true, properties: { rowNo: { type: 'integer' } } },
  },
  required: ['field', 'code', 'meta'],
} as const satisfies JSONSchema;
export type UserRowError = FromSchema<typeof userRowErrorSchema>;

/**
 * 422 of the preview and the bulk update: the row errors with the users as the CSV (or the body) gave them; a request
 * whose params or body fail their schema gets the field errors alone (no users, no rowNo).
 */
export const userRowErrorsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { errors: { type: 'array', items: userRowErrorSchema }, users: { type: 'array', items: organizationUserSchema } },
  required: ['errors'],
} as const satisfies JSONSchema;
export type UserRowErrorsAnswer = FromSchema<typeof userRowErrorsAnswerSchema>;

// ---------------------------------------------------------------------------------------------------
// Corporate subscriptions (SPEC §3 Subscription, §7 'Corporate subscriptions', 2.9, 2.10, 2.11)

/** A service of an application as the list shows it: its group's id and name. */
export const subscriptionServiceSummarySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    subtitle: { type: 'string' },
    serviceGroup: {
      type: 'object',
      additionalProperties: false,
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
      required: ['id', 'name'],
    },
  },
  required: ['id', 'name', 'subtitle', 'serviceGroup'],
} as const satisfies JSONSchema;

/** A service of an application as Application Details and the wizards show it: the group also has its links (terms). */
export const subscriptionServiceSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...subscriptionServiceSummarySchema.properties, serviceGroup: serviceGroupRefSchema },
  required: subscriptionServiceSummarySchema.required,
} as const satisfies JSONSchema;

const subscriptionSummaryProperties = {
  id: { type: 'integer', description: '0 in a dry run of a new application' },
  requestCode: { type: 'string', description: "the application number ('A' + 9 digits); '' in a dry run of a new application" },
  isUpdatable: { type: 'boolean', description: 'true until 2 business days before startsOn (src/common/subscriptionRules.ts isUpdatable)' },
  appliedAt: { type: 'string', format: 'date-time' },
  startsOn: { type: 'array', items: { type: 'string', format: 'date' }, description: 'yyyy-MM-dd; the first is used' },
  userCount: { type: 'integer' },
  project: { anyOf: [projectSchema, { type: 'null' }], description: "the project class's project (gls: shown instead of the service names)" },
  projectClass: {
    anyOf: [
      { type: 'object', additionalProperties: false, properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] },
      { type: 'null' },
    ],
  },
} as const;

const subscriptionSummaryRequired = ['id', 'requestCode', 'isUpdatable', 'appliedAt', 'startsOn', 'userCount', 'services', 'project', 'projectClass'] as const;

/** An application of the organisation's list (SPEC 2.9). */
export const subscriptionSummarySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...subscriptionSummaryProperties, services: { type: 'array', items: subscriptionServiceSummarySchema } },
  required: subscriptionSummaryRequired,
} as const satisfies JSONSchema;
export type SubscriptionSummary = FromSchema<typeof subscriptionSummarySchema>;

/** An admin of an application (SPEC §3 Subscription.admins). */
export const subscriptionAdminSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'integer' }, firstName: { type: 'string' }, lastName: { type: 'string' }, email: { type: 'string' } },
  required: ['id', 'firstName', 'lastName', 'email'],
} as const satisfies JSONSchema;
export type SubscriptionAdmin = FromSchema<typeof subscriptionAdminSchema>;

/** A learner row of an application (SPEC §3 Learner row in a subscription): id 0 for a new row of a dry run. */
export const subscriptionUserSchema = {
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
export type SubscriptionUser = FromSchema<typeof subscriptionUserSchema>;

/** One application (SPEC §3 Subscription; 2.10 Application Details, the edit wizard's initial values). */
export const subscriptionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...subscriptionSummaryProperties,
    services: { type: 'array', items: subscriptionServiceSchema },
    type: { type: 'string', enum: ['standard', 'class'], description: 'class: the application has a project class' },
    term: { type: ['string', 'null'], description: "the term of a single-choice group's service (its subtitle); null for subjects" },
    admins: { type: 'array', items: subscriptionAdminSchema },
    users: { type: 'array', items: subscriptionUserSchema },
    billingContact: { anyOf: [billingContactSchema, { type: 'null' }] },
    billingContactId: { type: ['integer', 'null'] },
    contact: { anyOf: [contactSchema, { type: 'null' }] },
    contactId: { type: ['integer', 'null'] },
    billingNote: { type: ['string', 'null'] },
  },
  required: [...subscriptionSummaryRequired, 'type', 'term', 'admins', 'users', 'billingContact', 'billingContactId', 'contact', 'contactId', 'billingNote'],
} as const satisfies JSONSchema;
export type Subscription = FromSchema<typeof subscriptionSchema>;

export const SUBSCRIPTION_WARNING_CODES = ['alreadyBooked', 'belowClassMinimum', 'unregisteredClass'] as const;
export type SubscriptionWarningCode = (typeof SUBSCRIPTION_WARNING_CODES)[number];

/**
 * What an application's write warns about (SPEC §3 User warning, §5 Application): per learner row (the index of
 * users), 'duplicatedName' or {engagedRequestCode} (the same e-mail in another application of the organisation whose
 * term overlaps); and codes for the whole application.
 */
export const subscriptionWarningsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    users: {
      type: 'array',
      items: {
        type: 'array',
        items: {
          anyOf: [
            { type: 'string', enum: ['duplicatedName'] },
            { type: 'object', additionalProperties: false, properties: { engagedRequestCode: { type: 'string' } }, required: ['engagedRequestCode'] },
          ],
        },
      },
    },
    codes: { type: 'array', items: { type: 'string', enum: SUBSCRIPTION_WARNING_CODES } },
  },
  required: ['users', 'codes'],
} as const satisfies JSONSchema;
export type SubscriptionWarnings = FromSchema<typeof subscriptionWarningsSchema>;
export type SubscriptionUserWarning = SubscriptionWarnings['users'][number][number];

/** GET organizations/{orgId}/corporate_subscriptions */
export const subscriptionsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { corporateSubscriptions: { type: 'array', items: subscriptionSummarySchema } },
  required: ['corporateSubscriptions'],
} as const satisfies JSONSchema;
export type SubscriptionsAnswer = FromSchema<typeof subscriptionsAnswerSchema>;

/** GET organizations/{orgId}/corporate_subscriptions/{requestCode} */
export const subscriptionAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { corporateSubscription: subscriptionSchema },
  required: ['corporateSubscription'],
} as const satisfies JSONSchema;
export type SubscriptionAnswer = FromSchema<typeof subscriptionAnswerSchema>;

/** POST and PATCH …/corporate_subscriptions[/{requestCode}] and PATCH …/confirmed_corporate_subscriptions/{requestCode}. */
export const subscriptionWriteAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { corporateSubscription: subscriptionSchema, warnings: subscriptionWarningsSchema },
  required: ['corporateSubscription', 'warnings'],
} as const satisfies JSONSchema;
export type SubscriptionWriteAnswer = FromSchema<typeof subscriptionWriteAnswerSchema>;
