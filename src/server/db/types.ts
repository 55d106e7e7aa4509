/**
 * The database as Kysely sees it. Tables and columns are snake_case in SQL; Kysely's CamelCasePlugin
 * maps them to the camelCase names below, so code uses the spec's words (gloplaId, serviceGroupId, …).
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

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

export const LINK_CATEGORIES = ['description', 'purchase', 'history', 'admin', 'terms', 'other_sso'] as const;
export type LinkCategory = (typeof LINK_CATEGORIES)[number];

export interface OrganizationsTable {
  id: Generated<number>;
  gloplaId: string;
  corporationCode: number | null;
  gloplaIdName: string;
  corporationAccountName: string;
  corporationOfficialName: string;
  corporationAccountCode: string;
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
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface AffiliationsTable {
  id: Generated<number>;
  adminId: number;
  organizationId: number;
  role: ColumnType<AffiliationRole, AffiliationRole | undefined, AffiliationRole>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface ServiceGroupsTable {
  /** The numbers of SPEC §1 (service-group ids equal the service type ids). */
  id: number;
  identifier: string;
  name: LocalizedText;
  createdAt: CreatedAt;
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
  scope: 'account' | 'address' | 'account_address';
  key: string;
  failures: number;
  lastFailureAt: Timestamp;
  lockedUntil: Timestamp | null;
}

export const ADMIN_TOKEN_PURPOSES = ['activation', 'password_reset'] as const;
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
  createdAt: CreatedAt;
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
  mails: MailsTable;
  mailQueue: MailQueueTable;
  rateLimitCounters: RateLimitCountersTable;
  captchaSolutions: CaptchaSolutionsTable;
  serverSecrets: ServerSecretsTable;
  idpPayloads: IdpPayloadsTable;
  idpKeys: IdpKeysTable;
  signinAttempts: SigninAttemptsTable;
  productAdminRoles: ProductAdminRolesTable;
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
