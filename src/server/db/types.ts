/**
 * The database as Kysely sees it. Tables and columns are snake_case in SQL; Kysely's CamelCasePlugin
 * maps them to the camelCase names below, so code uses the spec's words (gloplaId, serviceGroupId, …).
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { LinkCategory } from '../../common/serviceLinks.js';
import type { SsoConnection } from '../../common/api/ssoAnswers.js';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/**
 * Text the portal shows in both languages, stored as jsonb `{"ja": …, "en": …}`.
 * Used where the API returns one language chosen by the caller's `lang` (services, service groups,
 * link labels, announcement articles): one column per field keeps a third language a data change,
 * not a migration. Notices are the exception: their wire format is `content_ja`/`content_en`, so they
 * keep one column per language.
 */
export interface LocalizedText {
  ja: string;
  en: string;
}

export const AFFILIATION_ROLES = ['manager', 'member'] as const;
export type AffiliationRole = (typeof AFFILIATION_ROLES)[number];

export { LINK_CATEGORIES, type LinkCategory } from '../../common/serviceLinks.js';

export interface OrganizationsTable {
  id: Generated<number>;
  gloplaId: string;
  corporationCode: number | null;
  gloplaIdName: string;
  corporationAccountName: string;
  corporationOfficialName: string;
  corporationAccountCode: string;
  /** Every admin acting for it signs in in two steps (issue 29). */
  twoStepRequired: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface AdminsTable {
  id: Generated<number>;
  /** Always stored in lower case (a check constraint enforces it). */
  email: string;
  firstName: ColumnType<string, string | undefined, string>;
  middleName: ColumnType<string, string | undefined, string>;
  lastName: ColumnType<string, string | undefined, string>;
  kanaFirstName: ColumnType<string, string | undefined, string>;
  kanaMiddleName: ColumnType<string, string | undefined, string>;
  kanaLastName: ColumnType<string, string | undefined, string>;
  latinFirstName: ColumnType<string, string | undefined, string>;
  latinMiddleName: ColumnType<string, string | undefined, string>;
  latinLastName: ColumnType<string, string | undefined, string>;
  division: ColumnType<string, string | undefined, string>;
  region: ColumnType<string, string | undefined, string>;
  language: ColumnType<string, string | undefined, string>;
  /** argon2id hash; null until the admin sets a password on activation. */
  passwordHash: string | null;
  activatedAt: Timestamp | null;
  /** Access tokens of the admin issued before this time (whole seconds) are refused (domain/admins.ts endAdminTokens). */
  tokensValidAfter: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Whether the admin gets the change-deadline reminders (issue 30; My Account). */
  deadlineReminders: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface AffiliationsTable {
  id: Generated<number>;
  adminId: number;
  organizationId: number;
  role: ColumnType<AffiliationRole, AffiliationRole | undefined, AffiliationRole>;
  /** The admin's first sign-in for this organisation (null: none yet): account events reach it from then on (domain/audit.ts). */
  firstSignedInAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface ServiceGroupsTable {
  /** The numbers of SPEC §1 (service-group ids equal the service type ids). */
  id: number;
  identifier: string;
  name: LocalizedText;
  /** How the application wizard chooses the group's services: one (a term) or several (subjects). */
  selection: ColumnType<ServiceSelection, ServiceSelection | undefined, ServiceSelection>;
  position: ColumnType<number, number | undefined, number>;
  /** The most users an application may have (SPEC §5; emba: subjects × participants); null: no limit. */
  maximumUsers: ColumnType<number | null, number | null | undefined, number | null>;
  /** The gls class size (SPEC §5); null outside gls. */
  classSizeMinimum: ColumnType<number | null, number | null | undefined, number | null>;
  classSizeMaximum: ColumnType<number | null, number | null | undefined, number | null>;
  createdAt: CreatedAt;
}

export const SERVICE_SELECTIONS = ['single', 'multi'] as const;
export type ServiceSelection = (typeof SERVICE_SELECTIONS)[number];

export interface OrganizationServicesTable {
  organizationId: number;
  serviceId: number;
}

export const PROJECT_CLASS_KINDS = ['bundled', 'gls'] as const;
export type ProjectClassKind = (typeof PROJECT_CLASS_KINDS)[number];

export interface ProjectsTable {
  id: Generated<number>;
  organizationId: number;
  projectCode: string;
  name: string;
}

export interface ProjectClassesTable {
  id: Generated<number>;
  projectId: number;
  code: string;
  name: string;
  kind: ProjectClassKind;
  position: ColumnType<number, number | undefined, number>;
  /** The class's first and last day (migration 0086); a class application starts on its first day. */
  startsOn: ColumnType<string | null, string | null | undefined, string | null>;
  endsOn: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ServicesTable {
  id: number;
  serviceGroupId: number;
  identifier: string;
  name: LocalizedText;
  subtitle: LocalizedText;
  summary: LocalizedText;
  description: LocalizedText;
  thumbnailUrl: string | null;
  imageUrl: string | null;
  position: ColumnType<number, number | undefined, number>;
  /** No longer offered (SPEC §9 discontinuation). */
  discontinued: ColumnType<boolean, boolean | undefined, boolean>;
  /** The last date an application may start (SPEC §9), read as 'yyyy-MM-dd' text; null: none. */
  lastStartsOn: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: CreatedAt;
}

export interface ServiceLinksTable {
  id: Generated<number>;
  /** Exactly one of serviceId and serviceGroupId is set. */
  serviceId: number | null;
  serviceGroupId: number | null;
  category: LinkCategory;
  url: string;
  label: LocalizedText;
  position: ColumnType<number, number | undefined, number>;
}

export interface FeatureFlagsTable {
  name: string;
  enabled: boolean;
  updatedAt: UpdatedAt;
}

export interface NoticesTable {
  id: Generated<number>;
  target: string;
  contentJa: string;
  contentEn: string;
  startsAt: Timestamp | null;
  endsAt: Timestamp | null;
  createdAt: CreatedAt;
}

export interface AnnouncementArticlesTable {
  id: Generated<number>;
  title: LocalizedText;
  body: LocalizedText;
  url: string | null;
  publishedAt: Timestamp;
  createdAt: CreatedAt;
}

export interface RegistrationRequestsTable {
  id: Generated<number>;
  corporationName: string;
  departments: string;
  position: string | null;
  personInCharge: string;
  phoneNumber: string;
  email: string;
  zipCode: string;
  address: string;
  corporationUrl: string | null;
  scaleOfEmployees: string;
  createdAt: CreatedAt;
}

/** One oidc-provider model instance (adapter of src/server/idp/adapter.ts); `payload` is the model's own JSON. */
export interface IdpPayloadsTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, unknown, unknown>;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  accountId: string | null;
  expiresAt: Timestamp | null;
  consumedAt: Timestamp | null;
}

/** The provider's persisted keys: kind 'signing' (a private JWK) or 'cookie' (`{"secret": …}`). */
export interface IdpKeysTable {
  kind: 'signing' | 'cookie';
  kid: string;
  key: ColumnType<Record<string, unknown>, unknown, unknown>;
  createdAt: CreatedAt;
}

/** Failed sign-in counters (src/server/domain/signinThrottle.ts). */
export interface SigninAttemptsTable {
  scope: 'account' | 'address' | 'account_address' | 'second_step';
  key: string;
  failures: number;
  lastFailureAt: Timestamp;
  lockedUntil: Timestamp | null;
}

export const ADMIN_TOKEN_PURPOSES = ['activation', 'password_reset', 'two_step_enrolment'] as const;
export type AdminTokenPurpose = (typeof ADMIN_TOKEN_PURPOSES)[number];

/** A mailed activation or password-reset link (src/server/domain/adminTokens.ts); the token itself is never stored. */
export interface AdminTokensTable {
  id: Generated<number>;
  adminId: number;
  purpose: AdminTokenPurpose;
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
  /** The organisation whose invitation mailed this activation link (migration 0080); null: none known. */
  organizationId: ColumnType<number | null, number | null | undefined, number | null>;
  createdAt: CreatedAt;
}

/** Per admin and organisation: the admin's access tokens for the organisation issued before this are refused (migration 0080). */
export interface AdminOrganizationTokensTable {
  adminId: number;
  organizationId: number;
  tokensValidAfter: Timestamp;
}

/**
 * The admin's role in a product of the provider, per organisation (SPEC 2.14 Admin Permissions); the products own
 * these roles, the portal shows them. `position` orders the list.
 */
export interface ProductAdminRolesTable {
  id: Generated<number>;
  adminId: number;
  organizationId: number;
  productName: LocalizedText;
  role: LocalizedText;
  helpUrl: string;
  position: ColumnType<number, number | undefined, number>;
}

/** SPEC §3 Contact: a delivery address of an organisation (migration 0060). */
export interface ContactsTable {
  id: Generated<number>;
  organizationId: number;
  corporationName: string;
  departmentName: string;
  postalCode: string;
  address: string;
  firstName: string;
  lastName: string;
  kanaFirstName: string;
  kanaLastName: string;
  phoneNumber: string;
  email: string;
  createdAt: ColumnType<Date, Date | undefined, Date>;
  updatedAt: ColumnType<Date, Date | undefined, Date>;
}

/** SPEC §3 Billing contact: where an organisation's invoices go (migration 0060); ccEmail and addressee '' when blank. */
export interface BillingContactsTable {
  id: Generated<number>;
  organizationId: number;
  corporationName: string;
  departmentName: string;
  firstName: string;
  lastName: string;
  kanaFirstName: string;
  kanaLastName: string;
  phoneNumber: string;
  email: string;
  ccEmail: ColumnType<string, string | undefined, string>;
  addressee: ColumnType<string, string | undefined, string>;
  createdAt: ColumnType<Date, Date | undefined, Date>;
  updatedAt: ColumnType<Date, Date | undefined, Date>;
}

/** The outbox of DESIGN §4 (src/server/mail/): what would have been sent without SMTP_URL. */
export interface MailsTable {
  id: Generated<number>;
  /** Comma-separated addresses. */
  recipients: string;
  cc: string | null;
  subject: string;
  textPart: string;
  htmlPart: string;
  /** The absolute URLs found in the mail. */
  links: ColumnType<string[], string[] | unknown, never>;
  sentAt: CreatedAt;
}

/** Mail work done after the answer, retried until done (src/server/mail/queue.ts). */
export interface MailQueueTable {
  id: Generated<number>;
  /** 'mail' (a rendered mail) or a mail request ('activation', 'password_reset'). */
  kind: string;
  payload: ColumnType<unknown, unknown, never>;
  attempts: ColumnType<number, number | undefined, number>;
  nextAttemptAt: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Claimed by a worker until then (a worker that died lets go when it passes). */
  lockedUntil: Timestamp | null;
  lastError: string | null;
  /** Given up after the last attempt (kept for the log and an operator). */
  failedAt: Timestamp | null;
  createdAt: CreatedAt;
}

/** Fixed-window request counters (src/server/domain/rateLimits.ts). */
export interface RateLimitCountersTable {
  key: string;
  windowStart: Timestamp;
  hits: number;
}

/** Captcha challenges already answered, kept until they expire (src/server/domain/captcha.ts). */
export interface CaptchaSolutionsTable {
  challengeId: string;
  expiresAt: Timestamp;
}

/** Secrets generated once and shared by every instance (src/server/domain/serverSecrets.ts). */
export interface ServerSecretsTable {
  name: string;
  value: string;
  createdAt: CreatedAt;
}

/** An admin's authenticator app (migration 0092, domain/twoStep.ts): a factor once confirmed. */
export interface AdminAuthenticatorAppsTable {
  adminId: number;
  /** AES-256-GCM of the base32 secret (domain/twoStep.ts). */
  secretEncrypted: string;
  confirmedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The last 30-second step whose code was accepted: a code is taken once. */
  lastUsedStep: ColumnType<string, number | string | undefined, number | string>;
  createdAt: CreatedAt;
}

/** An admin's one-time recovery codes (migration 0092), as keyed hashes. */
export interface AdminRecoveryCodesTable {
  id: Generated<number>;
  adminId: number;
  codeHash: string;
  usedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: CreatedAt;
}

/** The version of an organisation's list (migration 0113): moved by triggers on every change the list shows; organisation 0: every organisation's. */
export interface ListVersionsTable {
  organizationId: number;
  list: 'admins' | 'applications';
  /** bigint: pg reads it as a string. */
  version: ColumnType<string, string | number, string | number>;
}

/** An admin's passkey (migration 0094, domain/passkeys.ts): a WebAuthn credential. */
export interface AdminPasskeysTable {
  id: Generated<number>;
  adminId: number;
  /** base64url, as the browser names it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: ColumnType<string, number | string | undefined, number | string>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  name: string;
  createdAt: CreatedAt;
  lastUsedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A WebAuthn ceremony's challenge, used once (migration 0094). */
export interface WebauthnChallengesTable {
  key: string;
  challenge: string;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
}

/** A change-deadline reminder sent (migration 0095, domain/deadlineReminders.ts): once per application and deadline. */
export interface DeadlineRemindersTable {
  subscriptionId: number;
  changeDeadline: ColumnType<string, string, string>;
  sentAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Which instance runs a periodic job until when (migration 0095, db/jobLeases.ts). */
export interface JobLeasesTable {
  name: string;
  heldUntil: ColumnType<Date, Date | string, Date | string>;
}

/** A partner product the single-sign-on gateway forwards to (migration 0043, domain/singleSignOn.ts), by its code (`gpc`). */
export interface PartnerProductsTable {
  code: string;
  /** SPEC §3 productId; 4 also carries projectId and projectCode. */
  productId: number;
  name: string;
  /** Where the browser is sent; a path (`/dev/partner`) is resolved against PUBLIC_URL, in demo mode only. */
  authUrl: string;
  /** The shared secret (≥ 32 characters) that signs the tokens (HMAC-SHA256) and authenticates the partner's verify call. */
  secret: string;
  createdAt: CreatedAt;
}

/** A single-sign-on token issued (`guq`), accepted once by the partner's verify call before it expires. */
export interface SingleSignOnTokensTable {
  id: string;
  partnerCode: string;
  adminId: number;
  gloplaId: string;
  language: string;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
  createdAt: CreatedAt;
}

export const NAME_ID_TYPES = ['email', 'nameId'] as const;
export type NameIdType = (typeof NAME_ID_TYPES)[number];

/** A learner of an organisation (migration 0061, domain/organizationUsers.ts; SPEC §3 Organisation user). */
export interface OrganizationUsersTable {
  id: Generated<number>;
  organizationId: number;
  lastName: string;
  firstName: string;
  kanaLastName: ColumnType<string, string | undefined, string>;
  kanaFirstName: ColumnType<string, string | undefined, string>;
  email: string;
  /** Single-byte alphanumerics, or '' (a check constraint enforces it). */
  nameId: ColumnType<string, string | undefined, string>;
  /** null: no identity provider specified for the learner (nameId must be blank). */
  nameIdType: NameIdType | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** SPEC §3 Subscription: an organisation's application for services of one group (migration 0070). */
export interface CorporateSubscriptionsTable {
  id: Generated<number>;
  organizationId: number;
  /** 'A' + 9 digits: random (domain/requestCodes.ts); the demo data's from the sequence corporate_subscription_request_codes. */
  requestCode: string;
  serviceGroupId: number;
  /** 'yyyy-MM-dd' (read with to_char). */
  startsOn: ColumnType<string, string, string>;
  appliedAt: CreatedAt;
  /** null with a project class, or once the billing contact was deleted. */
  billingContactId: number | null;
  contactId: number | null;
  billingNote: string | null;
  projectClassId: number | null;
  /** Its learners, counted by triggers on subscription_learners (migration 0111): never written by the domain. */
  learnerCount: Generated<number>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface SubscriptionServicesTable {
  subscriptionId: number;
  serviceId: number;
}

export interface SubscriptionAdminsTable {
  subscriptionId: number;
  adminId: number;
}

/** A learner row of an application (SPEC §3 Learner row in a subscription), in the order of the form (position). */
export interface SubscriptionLearnersTable {
  id: Generated<number>;
  subscriptionId: number;
  firstName: string;
  lastName: string;
  kanaFirstName: string;
  kanaLastName: string;
  email: string;
  position: number;
}

/** The first answer of an application write per organisation, admin and Idempotency-Key (migration 0081, domain/idempotency.ts). */
export interface IdempotencyRecordsTable {
  organizationId: number;
  adminId: number;
  key: string;
  /** SHA-256 (hex) of the request the key was first used with. */
  requestHash: string;
  answer: ColumnType<unknown, string, string>;
  /** Renewed when an expired key is used again. */
  createdAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One recorded action of the audit trail (migration 0087, domain/audit.ts): append-only. */
export interface AuditEventsTable {
  id: Generated<string>;
  organizationId: number;
  actorAdminId: number | null;
  /** The actor's e-mail at the time. */
  actorEmail: Generated<string>;
  occurredAt: ColumnType<Date, Date | string | undefined, never>;
  action: string;
  targetType: string;
  targetId: string;
  /** The target's label at the time (a name, an e-mail, a requestCode). */
  targetLabel: Generated<string>;
  /** The fields that changed: {field: {before, after}}. */
  changes: ColumnType<unknown, string | undefined, never>;
  /** An API client acting (migration 0105, issue 46): its id and its name at the time; null for an admin's entries. */
  actorApiClientId: ColumnType<string | null, string | null | undefined, never>;
  actorApiClientName: ColumnType<string | null, string | null | undefined, never>;
}

/** An organisation's own API client (migration 0103, domain/apiClients.ts; issue 46). */
export interface ApiClientsTable {
  id: string;
  organizationId: number;
  /** The OAuth 2.0 client_id (public). */
  clientId: string;
  name: string;
  scopes: string[];
  /** SHA-256 (hex) of the secret; the one before the last rotation while its overlap lasts. */
  secretHash: string;
  previousSecretHash: ColumnType<string | null, string | null | undefined, string | null>;
  previousSecretExpiresAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** A public key set for private_key_jwt (null: client_secret_basic). */
  publicJwks: ColumnType<unknown, string | null | undefined, string | null>;
  expiresAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdByAdminId: number | null;
  createdByEmail: ColumnType<string, string | undefined, string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** When and from where an API client last called (migration 0103). */
export interface ApiClientUsesTable {
  apiClientId: string;
  lastUsedAt: Timestamp;
  lastUsedAddress: string;
}

/** A token bucket shared by the instances (migration 0104, domain/rateLimits.ts). */
export interface RateLimitBucketsTable {
  key: string;
  tokens: number;
  refilledAt: Timestamp;
  allowed: ColumnType<boolean, boolean | undefined, boolean>;
}

export type SsoProtocol = SsoConnection['protocol'];
export type SsoConnectionState = SsoConnection['state'];

/** An organisation's connection to its own identity provider (migration 0100, domain/ssoConnections.ts; issue 45). */
export interface SsoConnectionsTable {
  /** A random UUID: it names the connection in its public SAML URLs. */
  id: string;
  organizationId: number;
  protocol: SsoProtocol;
  name: string;
  state: ColumnType<SsoConnectionState, SsoConnectionState | undefined, SsoConnectionState>;
  /** OpenID Connect: the IdP's issuer (discovery), the portal's client id there, and its secret sealed (AES-256-GCM). */
  issuer: string | null;
  clientId: string | null;
  clientSecretEncrypted: string | null;
  /** SAML: the IdP's metadata, as XML or a URL to fetch it from. */
  idpMetadataXml: string | null;
  idpMetadataUrl: string | null;
  /** The last good metadata fetched from idp_metadata_url (the daily refresh, migration 0102), the URL it came from, and when. */
  idpMetadataFetchedXml: ColumnType<string | null, string | null | undefined, string | null>;
  idpMetadataFetchedFrom: ColumnType<string | null, string | null | undefined, string | null>;
  idpMetadataFetchedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The IdP's claim or attribute names of the admin's e-mail (required) and names (null: not taken from the IdP). */
  attributeEmail: string;
  attributeFamilyName: string | null;
  attributeGivenName: string | null;
  trustIdpMfa: ColumnType<boolean, boolean | undefined, boolean>;
  jitProvisioning: ColumnType<boolean, boolean | undefined, boolean>;
  idpInitiated: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** An IdP certificate's expiry mail sent (migration 0102, domain/ssoCertificates.ts): once per connection, certificate and threshold. */
export interface SsoCertificateRemindersTable {
  connectionId: string;
  /** The certificate's SHA-256 fingerprint (colon-separated hex). */
  fingerprint: string;
  threshold: 30 | 7;
  sentAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An e-mail domain an organisation claims (migration 0100, domain/ssoDomains.ts): verified by a DNS TXT record. */
export interface SsoDomainsTable {
  id: string;
  organizationId: number;
  /** Lower-case ASCII (an IDN as punycode). */
  domain: string;
  /** The connection its admins go to; null: the organisation's only active one. */
  connectionId: string | null;
  verificationToken: string;
  verifiedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  requireSso: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** An AuthnRequest awaiting its answer (migration 0101, saml/serviceProvider.ts): taken once, by its RelayState. */
export interface SamlRequestsTable {
  relayState: string;
  connectionId: string;
  requestId: string;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
}

/** An assertion accepted (migration 0101): its id is refused until it expires (replay). */
export interface SamlAssertionsTable {
  assertionId: string;
  connectionId: string;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
}

/** An organisation's webhook endpoint (migration 0106, domain/webhookEndpoints.ts; issue 46): its secret sealed. */
export interface WebhookEndpointsTable {
  id: string;
  organizationId: number;
  url: string;
  events: string[];
  secretEncrypted: string;
  /** Set when a delivery failed its whole retry schedule (the managers are mailed), or by a manager; null: sending. */
  disabledAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** An event of the outbox (migration 0106): written in the transaction of the change; its id is the `webhook-id`. */
export interface WebhookEventsTable {
  id: string;
  organizationId: number;
  type: string;
  payload: unknown;
  createdAt: CreatedAt;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** An event's delivery to one endpoint (migration 0106), sent by the job queue. */
export interface WebhookDeliveriesTable {
  id: string;
  endpointId: string;
  eventId: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  responseStatus: number | null;
  responseMs: number | null;
  lastError: string | null;
  lastAttemptAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: CreatedAt;
}

/** A confirmation's event written (migration 0107, domain/deadlineReminders.ts): once per application and change deadline. */
export interface WebhookConfirmationsTable {
  subscriptionId: number;
  changeDeadline: ColumnType<string, string, string>;
  createdAt: CreatedAt;
}

export interface Database {
  organizations: OrganizationsTable;
  admins: AdminsTable;
  affiliations: AffiliationsTable;
  serviceGroups: ServiceGroupsTable;
  services: ServicesTable;
  serviceLinks: ServiceLinksTable;
  featureFlags: FeatureFlagsTable;
  notices: NoticesTable;
  announcementArticles: AnnouncementArticlesTable;
  registrationRequests: RegistrationRequestsTable;
  adminTokens: AdminTokensTable;
  adminOrganizationTokens: AdminOrganizationTokensTable;
  mails: MailsTable;
  mailQueue: MailQueueTable;
  rateLimitCounters: RateLimitCountersTable;
  captchaSolutions: CaptchaSolutionsTable;
  serverSecrets: ServerSecretsTable;
  idpPayloads: IdpPayloadsTable;
  idpKeys: IdpKeysTable;
  signinAttempts: SigninAttemptsTable;
  productAdminRoles: ProductAdminRolesTable;
  organizationServices: OrganizationServicesTable;
  projects: ProjectsTable;
  projectClasses: ProjectClassesTable;
  partnerProducts: PartnerProductsTable;
  singleSignOnTokens: SingleSignOnTokensTable;
  contacts: ContactsTable;
  billingContacts: BillingContactsTable;
  organizationUsers: OrganizationUsersTable;
  corporateSubscriptions: CorporateSubscriptionsTable;
  subscriptionServices: SubscriptionServicesTable;
  subscriptionAdmins: SubscriptionAdminsTable;
  subscriptionLearners: SubscriptionLearnersTable;
  idempotencyRecords: IdempotencyRecordsTable;
  auditEvents: AuditEventsTable;
  apiClients: ApiClientsTable;
  apiClientUses: ApiClientUsesTable;
  rateLimitBuckets: RateLimitBucketsTable;
  adminAuthenticatorApps: AdminAuthenticatorAppsTable;
  adminRecoveryCodes: AdminRecoveryCodesTable;
  adminPasskeys: AdminPasskeysTable;
  listVersions: ListVersionsTable;
  webauthnChallenges: WebauthnChallengesTable;
  deadlineReminders: DeadlineRemindersTable;
  jobLeases: JobLeasesTable;
  ssoConnections: SsoConnectionsTable;
  ssoDomains: SsoDomainsTable;
  ssoCertificateReminders: SsoCertificateRemindersTable;
  samlRequests: SamlRequestsTable;
  samlAssertions: SamlAssertionsTable;
  webhookEndpoints: WebhookEndpointsTable;
  webhookEvents: WebhookEventsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookConfirmations: WebhookConfirmationsTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type Admin = Selectable<AdminsTable>;
export type NewAdmin = Insertable<AdminsTable>;
export type AdminUpdate = Updateable<AdminsTable>;
export type Affiliation = Selectable<AffiliationsTable>;
export type Notice = Selectable<NoticesTable>;
export type RegistrationRequest = Selectable<RegistrationRequestsTable>;
export type NewRegistrationRequest = Insertable<RegistrationRequestsTable>;
