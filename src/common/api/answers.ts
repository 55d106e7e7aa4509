/**
 * What the API answers (SPEC §7), as JSON Schemas with camelCase keys and the TypeScript types computed from them
 * (json-schema-to-ts). The server documents and serialises each schema in its wire rendering (snake_case); the
 * browser receives the camelCase shape, so both read the same type: a changed answer breaks the typecheck, not the
 * page.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The id of a record whose stored ids count across organisations (contacts, applications, audit events): the server
 * shows a keyed permutation of it (src/server/domain/publicIds.ts).
 */
export const PUBLIC_ID = "a public id: a keyed permutation of the stored one, telling nothing of other organisations' records";

/**
 * An object of exactly these properties, all required: most records and answers. The `const` type parameter keeps
 * the literal types `as const` would, so FromSchema computes the same type as from the spelled-out schema.
 */
export function objectOf<const P extends Record<string, JSONSchema>>(properties: P) {
  return { type: 'object', additionalProperties: false, properties, required: Object.keys(properties) as (keyof P & string)[] } as const;
}

/** The answer `{[key]: schema}` (SPEC §7: one record under its name). */
export function envelope<const K extends string, const S extends JSONSchema>(key: K, schema: S) {
  return objectOf({ [key]: schema } as { [P in K]: S });
}

/** The answer `{[key]: [items]}` (SPEC §7: a list under its name). */
export function listEnvelope<const K extends string, const S extends JSONSchema>(key: K, items: S) {
  return envelope(key, { type: 'array', items } as const);
}

export const ROLES = ['manager', 'member'] as const;

export const organizationSchema = objectOf({ id: { type: 'integer' }, gloplaId: { type: 'string' }, corporationOfficialName: { type: 'string' } });

/** An admin as an affiliation shows it (SPEC §3 Affiliation). */
export const affiliationAdminSchema = objectOf({
  id: { type: 'integer' },
  firstName: { type: 'string' },
  lastName: { type: 'string' },
  kanaFirstName: { type: 'string' },
  kanaLastName: { type: 'string' },
  email: { type: 'string' },
});

export const affiliationSchema = objectOf({ role: { type: 'string', enum: ROLES }, organization: organizationSchema, admin: affiliationAdminSchema });

export type Organization = FromSchema<typeof organizationSchema>;
export type AffiliationAdmin = FromSchema<typeof affiliationAdminSchema>;
export type Affiliation = FromSchema<typeof affiliationSchema>;

/** GET admins/me/affiliations */
export const affiliationsAnswerSchema = listEnvelope('affiliations', affiliationSchema);
export type AffiliationsAnswer = FromSchema<typeof affiliationsAnswerSchema>;

/**
 * An admin as the organisation's admin list shows it (SPEC 2.13): activatedAt is null until the admin activates
 * (the 'not activated' mark); a not-activated admin's invitation is the newest open activation link, with its expiry.
 */
export const memberAdminSchema = objectOf({
  ...affiliationAdminSchema.properties,
  activatedAt: { type: ['string', 'null'], format: 'date-time', description: 'null: not activated yet' },
  invitationExpiresAt: {
    type: ['string', 'null'],
    format: 'date-time',
    description: "a not-activated admin's newest open invitation (activation link): when it expires; null when there is none (or the admin is activated)",
  },
  invitationExpired: { type: 'boolean', description: 'true: not activated, and no invitation is open any more (expired or never sent)' },
  twoStep: { type: 'boolean', description: 'the admin signs in in two steps (a verified authenticator app, issue 29)' },
});
export type MemberAdmin = FromSchema<typeof memberAdminSchema>;

/** An affiliation of the organisation's admin list (SPEC 2.13, §3 Affiliation). */
export const organizationAffiliationSchema = objectOf({
  role: { type: 'string', enum: ROLES },
  etag: { type: 'string', description: "the affiliation's version (issue 28): send it in If-Match to change the role or remove the admin as you saw them" },
  organization: organizationSchema,
  admin: memberAdminSchema,
});
export type OrganizationAffiliation = FromSchema<typeof organizationAffiliationSchema>;

/** GET organizations/{orgId}/affiliations: managers first, then by kana name and e-mail. */
export const organizationAffiliationsAnswerSchema = listEnvelope('affiliations', organizationAffiliationSchema);
export type OrganizationAffiliationsAnswer = FromSchema<typeof organizationAffiliationsAnswerSchema>;

/**
 * PATCH organizations/{orgId}/affiliations/admins/{adminId} (the own name, or another admin's role) and
 * POST …/admins/{adminId}/invitation: the affiliation as the list shows it, to replace the list entry (SPEC §4).
 */
export const affiliationAnswerSchema = envelope('affiliation', organizationAffiliationSchema);
export type AffiliationAnswer = FromSchema<typeof affiliationAnswerSchema>;

export const INVITE_OUTCOMES = ['joined', 'invited'] as const;

/**
 * POST organizations/{orgId}/affiliations (SPEC §4 Invite outcomes): 'joined' — an activated admin joined at once;
 * 'invited' — an invitation mail went to a not-activated admin, who joins on activation.
 */
export const inviteAnswerSchema = objectOf({
  affiliation: organizationAffiliationSchema,
  outcome: { type: 'string', enum: INVITE_OUTCOMES },
});
export type InviteAnswer = FromSchema<typeof inviteAnswerSchema>;

/** A product admin role (SPEC §3, 2.14), in the reader's language. */
export const productAdminRoleSchema = objectOf({
  productName: { type: 'string' },
  role: { type: 'string' },
  helpUrl: { type: 'string', description: "the 'about role' link" },
});
export type ProductAdminRole = FromSchema<typeof productAdminRoleSchema>;

/** GET organizations/{orgId}/product_admin_roles */
export const productAdminRolesAnswerSchema = listEnvelope('productAdminRoles', productAdminRoleSchema);
export type ProductAdminRolesAnswer = FromSchema<typeof productAdminRolesAnswerSchema>;

/** GET admin/re_authentication_expiration */
export const reauthenticationAnswerSchema = objectOf({ isReAuthenticationExpired: { type: 'boolean', description: 'true: the password must be entered again' } });
export type ReauthenticationAnswer = FromSchema<typeof reauthenticationAnswerSchema>;

/** GET admins/me/two_step (issue 29): the signed-in admin's second factors, as the Sign-in security page shows them. */
/** A passkey of the signed-in admin (issue 29). */
export const passkeySchema = objectOf({
  id: { type: 'integer' },
  name: { type: 'string' },
  createdAt: { type: 'string', format: 'date-time' },
  lastUsedAt: { type: ['string', 'null'], format: 'date-time', description: 'null: never used to sign in' },
});

export const twoStepAnswerSchema = objectOf({
  passkeys: { type: 'array', items: passkeySchema },
  authenticatorApp: { type: 'boolean', description: 'an authenticator app (TOTP) is set up and verified' },
  recoveryCodesLeft: { type: 'integer', description: 'unused recovery codes' },
  twoStepRequired: { type: 'boolean', description: "an organisation of the admin requires two-step sign-in (removing the last factor holds the admin at set-up)" },
  enrolmentLinkRequired: { type: 'boolean', description: 'the first factor is set up through a link mailed to the admin (POST admins/me/two_step/enrolment_link): the rule binds an admin without one' },
});
export type TwoStepAnswer = FromSchema<typeof twoStepAnswerSchema>;

/** POST admins/me/authenticator_app: a set-up in progress, verified by a code of the app (PUT). */
export const authenticatorSetupAnswerSchema = objectOf({
  secret: { type: 'string', description: "the secret (base32) the admin types into the app if they cannot scan" },
  uri: { type: 'string', description: 'the otpauth:// URI the QR code holds' },
  qrCode: { type: 'string', description: 'the QR code, an SVG data: URL' },
});
export type AuthenticatorSetupAnswer = FromSchema<typeof authenticatorSetupAnswerSchema>;

/** POST admins/me/recovery_codes: new recovery codes, shown this once. */
const recoveryCodesSchema = { type: 'array', items: { type: 'string' }, description: 'ten one-time codes (xxxxx-xxxxx); empty when none were made' } as const;
export const recoveryCodesAnswerSchema = objectOf({ recoveryCodes: recoveryCodesSchema });
export type RecoveryCodesAnswer = FromSchema<typeof recoveryCodesAnswerSchema>;

/** POST admins/me/passkeys/registration_options: WebAuthn's creation options, as JSON text (no key conversion may touch them). */
export const passkeyOptionsAnswerSchema = objectOf({ options: { type: 'string', description: 'PublicKeyCredentialCreationOptionsJSON, as text' } });


/** GET and PUT organizations/{orgId}/sign_in_rule (issue 29): whether every admin of the organisation must sign in in two steps, and the rule's version (issue 44). */
export const signInRuleAnswerSchema = objectOf({
  twoStepRequired: { type: 'boolean', description: 'the API refuses password-only sessions of the organisation (403 mfa_required)' },
  etag: { type: 'string', description: "the rule's version (its ETag): send it in If-Match to change the rule as you saw it" },
});
export type SignInRuleAnswer = FromSchema<typeof signInRuleAnswerSchema>;

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

/** How a change of second factors answers: the caller's new session, the admin's others ended (issue 44 finding 1). */
const replacedSession = { ...sessionAnswerSchema, description: "the caller's new session (a token response); every other session of the admin has ended" } as const;

/** PUT admins/me/authenticator_app: recovery codes when it is the first factor (shown once), and the new session. */
export const factorAddedAnswerSchema = objectOf({ recoveryCodes: recoveryCodesSchema, session: replacedSession });
export type FactorAddedAnswer = FromSchema<typeof factorAddedAnswerSchema>;

/** POST admins/me/passkeys: the passkey kept, recovery codes when it is the first factor (shown once), the new session. */
export const passkeyAddedAnswerSchema = objectOf({ passkey: passkeySchema, recoveryCodes: recoveryCodesSchema, session: replacedSession });
export type PasskeyAddedAnswer = FromSchema<typeof passkeyAddedAnswerSchema>;

/** DELETE of a second factor: the new session (without mfa once no factor is left). */
export const factorRemovedAnswerSchema = objectOf({ session: replacedSession });
export type FactorRemovedAnswer = FromSchema<typeof factorRemovedAnswerSchema>;

/** The admin a mailed token belongs to: the activation check answers the names, the reset check only the id. */
export const tokenAdminAnswerSchema = envelope('admin', {
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
});
export type TokenAdminAnswer = FromSchema<typeof tokenAdminAnswerSchema>;
export type TokenAdmin = TokenAdminAnswer['admin'];

/** A service as the Home grid shows it (SPEC §3 Service), in the reader's language. */
export const serviceCardSchema = objectOf({
  id: { type: 'integer' },
  name: { type: 'string' },
  subtitle: { type: 'string' },
  summary: { type: 'string' },
  thumbnailUrl: { type: ['string', 'null'] },
  serviceGroup: objectOf({ id: { type: 'integer' }, name: { type: 'string' } }),
});
export type ServiceCard = FromSchema<typeof serviceCardSchema>;

/** GET services */
export const servicesAnswerSchema = listEnvelope('services', serviceCardSchema);
export type ServicesAnswer = FromSchema<typeof servicesAnswerSchema>;

/** A link of a service or a service group (SPEC §3 Link category), rewritten for the caller (SPEC §7). */
export const serviceLinkSchema = objectOf({
  url: { type: 'string' },
  category: { type: 'string', enum: ['description', 'purchase', 'history', 'admin', 'terms', 'other_sso'] },
  label: { type: 'string' },
});
export type ServiceLinkAnswer = FromSchema<typeof serviceLinkSchema>;

const serviceLinksSchema = {
  type: 'array',
  items: serviceLinkSchema,
  description: "links in their order; a member gets only the categories description, admin and other_sso (SPEC §6)",
} as const satisfies JSONSchema;

/** A service's group as a service names it (SPEC §3 Service.serviceGroup). */
export const serviceGroupRefSchema = objectOf({ id: { type: 'integer' }, name: { type: 'string' }, urls: serviceLinksSchema });

/** A service of a group (SPEC §3 Service, §9 discontinuation), in the reader's language. */
export const serviceSchema = objectOf({
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
});
export type Service = FromSchema<typeof serviceSchema>;

/** GET services/{id}: Service Details (SPEC 2.8). */
export const serviceAnswerSchema = envelope('service', serviceSchema);
export type ServiceAnswer = FromSchema<typeof serviceAnswerSchema>;

/** A service group (SPEC §1, §3 Service group, §5 user limits and class size). */
export const serviceGroupSchema = objectOf({
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
});
export type ServiceGroup = FromSchema<typeof serviceGroupSchema>;

/** GET service_groups */
export const serviceGroupsAnswerSchema = listEnvelope('serviceGroups', serviceGroupSchema);
export type ServiceGroupsAnswer = FromSchema<typeof serviceGroupsAnswerSchema>;

/** GET service_groups/{id} */
export const serviceGroupAnswerSchema = envelope('serviceGroup', serviceGroupSchema);
export type ServiceGroupAnswer = FromSchema<typeof serviceGroupAnswerSchema>;

/** GET service_groups/{id}/services */
export const groupServicesAnswerSchema = listEnvelope('services', serviceSchema);
export type GroupServicesAnswer = FromSchema<typeof groupServicesAnswerSchema>;

/** SPEC §3 Project: an organisation's training project. */
export const projectSchema = objectOf({ projectCode: { type: 'string' }, name: { type: 'string' } });

/** SPEC §3 Project class: a class of a project (projectCode names it). */
export const projectClassSchema = objectOf({ id: { type: 'integer' }, name: { type: 'string' }, projectCode: { type: 'string' }, code: { type: 'string' } });
export type ProjectClass = FromSchema<typeof projectClassSchema>;

/** GET organizations/{orgId}/project_classes/bundled: the organisation's classes, bundled and gls (SPEC §3 Organization.projectClass). */
export const projectClassesAnswerSchema = objectOf({
  projectClasses: objectOf({ bundled: { type: 'array', items: projectClassSchema }, gls: { type: 'array', items: projectClassSchema } }),
  projects: { type: 'array', items: projectSchema, description: 'the projects the classes belong to' },
});
export type ProjectClassesAnswer = FromSchema<typeof projectClassesAnswerSchema>;

/** GET notices (v1): a notice in both languages (SPEC §3 Notice). */
export const noticeSchema = objectOf({ id: { type: 'integer' }, target: { type: 'string' }, contentJa: { type: 'string' }, contentEn: { type: 'string' } });
export type Notice = FromSchema<typeof noticeSchema>;

export const noticesAnswerSchema = listEnvelope('notices', noticeSchema);
export type NoticesAnswer = FromSchema<typeof noticesAnswerSchema>;

/** GET announcements/articles: an announcement article in the asked language (SPEC §3 Announcement article, §7 Content). */
export const announcementArticleSchema = objectOf({
  id: { type: 'integer' },
  title: { type: 'string' },
  /** ISO 8601. */
  publishedAt: { type: 'string', format: 'date-time' },
  body: { type: 'string' },
  /** Where the whole article is, when it lives elsewhere. */
  url: { type: ['string', 'null'] },
});
export type AnnouncementArticle = FromSchema<typeof announcementArticleSchema>;

export const announcementArticlesAnswerSchema = listEnvelope('articles', announcementArticleSchema);
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
    supportChat: objectOf({ scriptUrl: { type: 'string' }, keys: objectOf({ ja: { type: 'string' }, en: { type: 'string' } }) }),
    /** The closed weekdays (holidays, the provider's closed days) around today, yyyy-MM-dd: the browser's business-day calendar. */
    closedDays: { type: 'array', items: { type: 'string' } },
  },
  required: ['announcementPageUrl'],
} as const satisfies JSONSchema;
export type PortalSettingsAnswer = FromSchema<typeof portalSettingsAnswerSchema>;

/** GET enabled_feature_flags/{name} */
export const featureFlagAnswerSchema = objectOf({ enabled: { type: 'boolean' } });
export type FeatureFlagAnswer = FromSchema<typeof featureFlagAnswerSchema>;

/** The answer of a call that has nothing to tell but success. */
export const emptyAnswerSchema = { type: 'object', additionalProperties: false, properties: {} } as const satisfies JSONSchema;

/** POST registration_requests: the stored application (SPEC 2.16); fields left empty are null. */
export const registrationRequestAnswerSchema = envelope(
  'registrationRequest',
  objectOf({
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
  }),
);
export type RegistrationRequestAnswer = FromSchema<typeof registrationRequestAnswerSchema>;

/** GET admin/single-sign-on (SPEC §3 Single-sign-on tokens): what the browser carries to the partner (README 'Single-sign-on gateway'). */
export const singleSignOnAnswerSchema = objectOf({
  authUrl: { type: 'string', description: "The partner's sign-in URL the browser goes to with the fields below and goi" },
  guq: { type: 'string', description: 'One-time token id (base64url); accepted once by POST single-sign-on/verify' },
  gss: { type: 'string', description: "The partner's state (gss of the request), unchanged" },
  gui: { type: 'string', description: "The admin's id" },
  gsg: { type: 'string', description: "base64url HMAC-SHA256 of the canonical string with the partner's secret" },
  ghs: { type: 'string', description: 'Expiry, epoch seconds: accepted while now < ghs (at most 60 s after issue)' },
  gul: { type: 'string', enum: ['ja', 'en'], description: 'Language (gul of the request, default ja)' },
  productId: { type: 'integer', description: "The partner product's id; 4 also carries projectId and projectCode" },
});
export type SingleSignOnAnswer = FromSchema<typeof singleSignOnAnswerSchema>;

/** POST single-sign-on/verify: who arrived at the partner with these tokens (now used). */
export const singleSignOnArrivalSchema = objectOf({
  gui: { type: 'string', description: "The admin's id" },
  goi: { type: 'string', description: "The organisation's gloplaId" },
  gul: { type: 'string', description: 'Language' },
  email: { type: 'string', description: "The admin's e-mail address" },
});
export type SingleSignOnArrival = FromSchema<typeof singleSignOnArrivalSchema>;

/** SPEC §3 Contact: a delivery address of the organisation (record fields). */
export const contactSchema = objectOf({
  id: { type: 'integer', description: PUBLIC_ID },
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
});
export type Contact = FromSchema<typeof contactSchema>;

/** A record's version as its calls show it (issue 28): the ETag of its own GET, sent back in If-Match to change it. */
const etag = { type: 'string', description: "the record's version (its ETag): send it in If-Match to change the record as you saw it" } as const;

/** A contact as its own calls answer it: with its version. */
export const versionedContactSchema = objectOf({ ...contactSchema.properties, etag });
export type VersionedContact = FromSchema<typeof versionedContactSchema>;

/** GET organizations/{orgId}/contacts: the organisation's contacts, oldest first. */
export const contactsAnswerSchema = listEnvelope('contacts', versionedContactSchema);
export type ContactsAnswer = FromSchema<typeof contactsAnswerSchema>;

/** GET, POST, PATCH organizations/{orgId}/contacts[/{id}]. */
export const contactAnswerSchema = envelope('contact', versionedContactSchema);
export type ContactAnswer = FromSchema<typeof contactAnswerSchema>;

/** SPEC §3 Billing contact (record fields): email is the 'To e-mail'; ccEmail and addressee are '' when blank. */
export const billingContactSchema = objectOf({
  id: { type: 'integer', description: PUBLIC_ID },
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
});
export type BillingContact = FromSchema<typeof billingContactSchema>;

/** A billing contact as its own calls answer it: with its version. */
export const versionedBillingContactSchema = objectOf({ ...billingContactSchema.properties, etag });
export type VersionedBillingContact = FromSchema<typeof versionedBillingContactSchema>;

/** GET organizations/{orgId}/billing_contacts: the organisation's billing contacts, oldest first. */
export const billingContactsAnswerSchema = listEnvelope('billingContacts', versionedBillingContactSchema);
export type BillingContactsAnswer = FromSchema<typeof billingContactsAnswerSchema>;

/** GET, POST, PATCH organizations/{orgId}/billing_contacts[/{id}]. */
export const billingContactAnswerSchema = envelope('billingContact', versionedBillingContactSchema);
export type BillingContactAnswer = FromSchema<typeof billingContactAnswerSchema>;

/** A learner of the organisation (SPEC §3 Organisation user; 2.15 Users). */
export const organizationUserSchema = objectOf({
  id: { type: 'integer' },
  lastName: { type: 'string' },
  firstName: { type: 'string' },
  kanaLastName: { type: 'string' },
  kanaFirstName: { type: 'string' },
  email: { type: 'string' },
  nameId: { type: 'string' },
  nameIdType: { type: ['string', 'null'], enum: ['email', 'nameId', null], description: 'null: no identity provider specified' },
  etag: { type: 'string', description: "the learner's version (issue 28; '' on a row naming no learner): a bulk update row carrying it is written only on that version, like If-Match" },
});
export type OrganizationUser = FromSchema<typeof organizationUserSchema>;

/** GET organizations/{orgId}/users, POST …/users/preview and …/users/bulk_update. */
export const organizationUsersAnswerSchema = listEnvelope('users', organizationUserSchema);
export type OrganizationUsersAnswer = FromSchema<typeof organizationUsersAnswerSchema>;

/** GET organizations/{orgId}/users: every learner, or with per_page a page of them by id and the next page's cursor (issue 27). */
export const organizationUsersPageSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    users: { type: 'array', items: organizationUserSchema },
    nextAfter: { type: ['integer', 'null'], description: "with per_page: the next page's `after` (the page's last learner's id), or null on the last page" },
  },
  required: ['users'],
} as const;
export type OrganizationUsersPage = FromSchema<typeof organizationUsersPageSchema>;

/** PATCH organizations/{orgId}/users/{userId}. */
export const organizationUserAnswerSchema = envelope('user', organizationUserSchema);
export type OrganizationUserAnswer = FromSchema<typeof organizationUserAnswerSchema>;

/** A row error of the learner CSV (SPEC §7 Users): rowNo is the CSV line (the header is line 1). */
export const userRowErrorSchema = objectOf({
  field: { type: 'string' },
  code: { type: 'string' },
  meta: { type: 'object', additionalProperties: true, properties: { rowNo: { type: 'integer' } } },
});
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
export const subscriptionServiceSummarySchema = objectOf({
  id: { type: 'integer' },
  name: { type: 'string' },
  subtitle: { type: 'string' },
  serviceGroup: objectOf({ id: { type: 'integer' }, name: { type: 'string' } }),
});

/** A service of an application as Application Details and the wizards show it: the group also has its links (terms). */
export const subscriptionServiceSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...subscriptionServiceSummarySchema.properties, serviceGroup: serviceGroupRefSchema },
  required: subscriptionServiceSummarySchema.required,
} as const satisfies JSONSchema;

const subscriptionSummaryProperties = {
  id: { type: 'integer', description: `${PUBLIC_ID}; 0 in a dry run of a new application` },
  requestCode: { type: 'string', description: "the application number ('A' + 9 digits); '' in a dry run of a new application" },
  etag: { type: 'string', description: "the application's version (its ETag, issue 28): send it in If-Match to change or cancel it as you saw it; a dry run answers the version it checked ('' for a new one)" },
  isUpdatable: { type: 'boolean', description: 'true until the change deadline (src/common/businessCalendar.ts isUpdatable)' },
  changeDeadline: { type: 'string', format: 'date', description: 'the last day (yyyy-MM-dd) the application may be changed or cancelled: 2 business days before startsOn, Japanese public holidays and the provider\'s closed days not counted' },
  appliedAt: { type: 'string', format: 'date-time' },
  startsOn: { type: 'array', items: { type: 'string', format: 'date' }, description: 'yyyy-MM-dd; the first is used' },
  userCount: { type: 'integer' },
  project: { anyOf: [projectSchema, { type: 'null' }], description: "the project class's project (gls: shown instead of the service names)" },
  projectClass: {
    anyOf: [
      objectOf({ id: { type: 'integer' }, name: { type: 'string' } }),
      { type: 'null' },
    ],
  },
} as const;

const subscriptionSummaryRequired = ['id', 'requestCode', 'etag', 'isUpdatable', 'changeDeadline', 'appliedAt', 'startsOn', 'userCount', 'services', 'project', 'projectClass'] as const;

/** An application of the organisation's list (SPEC 2.9). */
export const subscriptionSummarySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...subscriptionSummaryProperties, services: { type: 'array', items: subscriptionServiceSummarySchema } },
  required: subscriptionSummaryRequired,
} as const satisfies JSONSchema;
export type SubscriptionSummary = FromSchema<typeof subscriptionSummarySchema>;

/** An admin of an application (SPEC §3 Subscription.admins). */
export const subscriptionAdminSchema = objectOf({ id: { type: 'integer' }, firstName: { type: 'string' }, lastName: { type: 'string' }, email: { type: 'string' } });
export type SubscriptionAdmin = FromSchema<typeof subscriptionAdminSchema>;

/** A learner row of an application (SPEC §3 Learner row in a subscription): id 0 for a new row of a dry run. */
export const subscriptionUserSchema = objectOf(affiliationAdminSchema.properties);
export type SubscriptionUser = FromSchema<typeof subscriptionUserSchema>;

const deadlineSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    date: { type: 'string', format: 'date', description: 'the last day (Asia/Tokyo) the change is allowed' },
    passed: { type: 'boolean', description: 'today is after that day' },
  },
  required: ['date', 'passed'],
} as const satisfies JSONSchema;

/**
 * A class application's deadlines (SPEC §4 'Class enrolment deadlines'): past the reduction deadline (its change
 * deadline: the application is confirmed) no learner may be removed and a kept learner keeps its identity; past the
 * enlargement deadline (startsOn + SUBSCRIPTION_ENLARGEMENT_DAYS) none may be added. The browser's grid locks its rows
 * by them before the server refuses (reductionDeadline, enlargementDeadline).
 */
export const classDeadlinesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { reduction: deadlineSchema, enlargement: deadlineSchema },
  required: ['reduction', 'enlargement'],
} as const satisfies JSONSchema;
export type ClassDeadlines = FromSchema<typeof classDeadlinesSchema>;

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
    billingContactId: { type: ['integer', 'null'], description: PUBLIC_ID },
    contact: { anyOf: [contactSchema, { type: 'null' }] },
    contactId: { type: ['integer', 'null'], description: PUBLIC_ID },
    billingNote: { type: ['string', 'null'] },
    classDeadlines: { anyOf: [classDeadlinesSchema, { type: 'null' }], description: 'a class application\'s deadlines (SPEC §4); null without a class' },
  },
  required: [...subscriptionSummaryRequired, 'type', 'term', 'admins', 'users', 'billingContact', 'billingContactId', 'contact', 'contactId', 'billingNote', 'classDeadlines'],
} as const satisfies JSONSchema;
export type Subscription = FromSchema<typeof subscriptionSchema>;

export const SUBSCRIPTION_WARNING_CODES = ['alreadyBooked', 'belowClassMinimum', 'unregisteredClass'] as const;
export type SubscriptionWarningCode = (typeof SUBSCRIPTION_WARNING_CODES)[number];

/**
 * What an application's write warns about (SPEC §3 User warning, §5 Application): per learner row (the index of
 * users), 'duplicatedName' or {engagedRequestCode} (the same e-mail in another application of the organisation whose
 * term overlaps); and codes for the whole application.
 */
export const subscriptionWarningsSchema = objectOf({
  users: {
    type: 'array',
    items: {
      type: 'array',
      items: {
        anyOf: [
          { type: 'string', enum: ['duplicatedName'] },
          objectOf({ engagedRequestCode: { type: 'string' } }),
        ],
      },
    },
  },
  codes: { type: 'array', items: { type: 'string', enum: SUBSCRIPTION_WARNING_CODES } },
});
export type SubscriptionWarnings = FromSchema<typeof subscriptionWarningsSchema>;
export type SubscriptionUserWarning = SubscriptionWarnings['users'][number][number];

/** GET organizations/{orgId}/corporate_subscriptions */
export const subscriptionsAnswerSchema = objectOf({
  corporateSubscriptions: { type: 'array', items: subscriptionSummarySchema },
  nextPage: { type: ['integer', 'null'], description: 'the next page, or null on the last' },
});
export type SubscriptionsAnswer = FromSchema<typeof subscriptionsAnswerSchema>;

/** GET organizations/{orgId}/corporate_subscriptions/{requestCode} */
export const subscriptionAnswerSchema = envelope('corporateSubscription', subscriptionSchema);
export type SubscriptionAnswer = FromSchema<typeof subscriptionAnswerSchema>;

/** POST and PATCH …/corporate_subscriptions[/{requestCode}] and PATCH …/confirmed_corporate_subscriptions/{requestCode}. */
export const subscriptionWriteAnswerSchema = objectOf({ corporateSubscription: subscriptionSchema, warnings: subscriptionWarningsSchema });
export type SubscriptionWriteAnswer = FromSchema<typeof subscriptionWriteAnswerSchema>;

// ---------------------------------------------------------------------------------------------------
// Projects and their classes (SPEC 2.1 class routes, 2.8 project layout; issue 17)

/** An application of a class as the project layout lists it: 'changeable' before its change deadline, else 'confirmed'. */
export const classSubscriptionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requestCode: { type: 'string' },
    state: { type: 'string', enum: ['changeable', 'confirmed'] },
    startsOn: { type: 'string', format: 'date' },
    userCount: { type: 'integer' },
    classDeadlines: classDeadlinesSchema,
  },
  required: ['requestCode', 'state', 'startsOn', 'userCount', 'classDeadlines'],
} as const satisfies JSONSchema;

/** A gls class with its period (migration 0086; null: not set). */
export const projectClassPeriodSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    startsOn: { type: ['string', 'null'], format: 'date' },
    endsOn: { type: ['string', 'null'], format: 'date' },
    open: { type: 'boolean', description: 'learners may be registered: today is on or before registrationDeadline' },
    registrationDeadline: {
      type: ['string', 'null'],
      format: 'date',
      description: 'the last day a registration may be made (the class starts on or after the earliest start date of an application made that day); null without a period',
    },
  },
  required: ['id', 'code', 'name', 'startsOn', 'endsOn', 'open', 'registrationDeadline'],
} as const satisfies JSONSchema;

const projectRefSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'integer', description: 'the projectId single sign-on to product 4 carries (SPEC §7)' }, projectCode: { type: 'string' }, name: { type: 'string' } },
  required: ['id', 'projectCode', 'name'],
} as const satisfies JSONSchema;

/**
 * GET organizations/{orgId}/projects: the organisation's projects with gls classes, and their classes (in project
 * order), each naming its project and listing its applications.
 */
export const projectsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    projects: { type: 'array', items: projectRefSchema },
    projectClasses: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...projectClassPeriodSchema.properties,
          project: projectRefSchema,
          subscriptions: { type: 'array', items: classSubscriptionSchema },
        },
        required: [...projectClassPeriodSchema.required, 'project', 'subscriptions'],
      },
    },
  },
  required: ['projects', 'projectClasses'],
} as const satisfies JSONSchema;
export type ProjectsAnswer = FromSchema<typeof projectsAnswerSchema>;

/**
 * GET organizations/{orgId}/projects/{projectCode}/classes/{projectClassId}: one gls class of one project; also
 * GET organizations/{orgId}/projects/{projectCode}/corporate_subscriptions/{requestCode}: the project and the class of
 * one of its class applications.
 */
export const projectClassAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { project: projectRefSchema, projectClass: projectClassPeriodSchema },
  required: ['project', 'projectClass'],
} as const satisfies JSONSchema;
export type ProjectClassAnswer = FromSchema<typeof projectClassAnswerSchema>;

/** GET organizations/{orgId}/projects/{projectCode}: one project with a gls class (the class routes name it). */
export const projectAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { project: projectRefSchema },
  required: ['project'],
} as const satisfies JSONSchema;
export type ProjectAnswer = FromSchema<typeof projectAnswerSchema>;

/**
 * GET organizations/{orgId}/overview (issue 30): the manager's overview on Home, in one answer. pendingInvitations and
 * openClasses are a manager's: a member's answer has neither (issue 44 finding 5).
 */
const overviewParts = objectOf({
  today: { type: 'string', format: 'date', description: 'today in the Asia/Tokyo calendar, as the deadlines were counted' },
  upcomingApplications: {
    type: 'array',
    maxItems: 100,
    description: 'the applications starting from today to 90 days ahead, soonest first (at most 100)',
    items: objectOf({
      requestCode: { type: 'string' },
      serviceGroup: objectOf({ id: { type: 'integer' }, name: { type: 'string' } }),
      startsOn: { type: 'string', format: 'date' },
      userCount: { type: 'integer' },
      changeDeadline: { type: 'string', format: 'date', description: 'the last day a change or cancellation is allowed' },
      isUpdatable: { type: 'boolean', description: 'false: confirmed (the change deadline has passed)' },
      businessDaysLeft: { type: 'integer', description: 'business days after today up to the change deadline (0: today is the last day, or confirmed)' },
      deadlineNear: { type: 'boolean', description: 'still changeable with DEADLINE_REMINDER_BUSINESS_DAYS business days left or fewer' },
    }),
  },
  pendingInvitations: { type: 'integer', description: "admins of the organisation who have not accepted their invitation yet (a manager's answer only)" },
  openClasses: {
    type: 'array',
    maxItems: 50,
    description: "gls classes open for registration, soonest first (a manager's answer only)",
    items: objectOf({
      projectCode: { type: 'string' },
      projectName: { type: 'string' },
      id: { type: 'integer' },
      name: { type: 'string' },
      startsOn: { type: 'string', format: 'date' },
      registrationDeadline: { type: 'string', format: 'date' },
    }),
  },
  learnersByMonth: {
    type: 'array',
    description: 'learners per start month (yyyy-MM) and service group, six months back to six ahead; months without learners left out',
    items: objectOf({ month: { type: 'string' }, serviceGroupId: { type: 'integer' }, serviceGroupName: { type: 'string' }, learners: { type: 'integer' } }),
  },
});
export const overviewAnswerSchema = { ...overviewParts, required: ['today', 'upcomingApplications', 'learnersByMonth'] } as const satisfies JSONSchema;
export type OverviewAnswer = FromSchema<typeof overviewAnswerSchema>;

/** GET/PUT admins/me/notification_settings (issue 30): the mails the admin chose to get. */
export const notificationSettingsAnswerSchema = objectOf({
  deadlineReminders: { type: 'boolean', description: "a manager's reminder mails of the organisations' change deadlines" },
});
export type NotificationSettingsAnswer = FromSchema<typeof notificationSettingsAnswerSchema>;
