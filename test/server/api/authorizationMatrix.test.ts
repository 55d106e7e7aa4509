/**
 * The route authorisation matrix (DESIGN §5): one row for every route Fastify registers, stating the status each
 * caller gets. A route without a row fails the suite, so no route lands without saying who may call it.
 *
 * Callers: anonymous (no token), forged (a token signed with a stranger's key), expired, member and manager of
 * G0000001, the manager of another organisation (G0000002), and a session of another organisation (the manager of
 * G0000001 signed in for G0000002, where they are a member).
 */
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { InjectOptions } from 'fastify';
import { API_CLIENT_SCOPES, type ApiClientScope } from '../../../src/common/apiScopes.js';
import { API_ERROR } from '../../../src/common/errorCodes.js';
import { ROUTE_SCOPES } from '../../../src/server/api/clientAuth.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

const CALLERS = ['anonymous', 'forged', 'expired', 'member', 'manager', 'otherManager', 'otherSession', 'mfaMissing'] as const;
type Caller = (typeof CALLERS)[number];
type Expected = Record<Caller, number>;

interface Row {
  request: Omit<InjectOptions, 'headers' | 'remoteAddress'>;
  expected: Expected;
}

/** A route that takes no admin token: every caller gets the same answer. */
function publicRoute(request: Row['request'], status: number): Row {
  return { request, expected: Object.fromEntries(CALLERS.map((caller) => [caller, status])) as Expected };
}

/**
 * Routes that act for the session's organisation: G0000001 requires two-step sign-in in this suite, so its manager's
 * password-only session (mfaMissing) is refused them, 403 mfa_required (issue 29); the admin's own account is not.
 */
const ACTS_FOR_THE_ORGANISATION = /^\/api\/v2\/(organizations\/|services|service_groups|admin\/single-sign-on)/;

/** A route of a signed-in admin: no, forged or expired token → 401; the signed-in callers as given (mfaMissing: see above). */
function signedInRoute(request: Row['request'], signedIn: Pick<Expected, 'member' | 'manager' | 'otherManager' | 'otherSession'>): Row {
  const mfaMissing = ACTS_FOR_THE_ORGANISATION.test(String(request.url)) ? 403 : signedIn.manager;
  return { request, expected: { anonymous: 401, forged: 401, expired: 401, ...signedIn, mfaMissing } };
}

const everyone = (status: number) => ({ member: status, manager: status, otherManager: status, otherSession: status });

/**
 * A first factor's set-up under G0000001's two-step rule (issue 44): its admins, who have no factor, need the mailed
 * link (403 enrolment_link_required, mfaMissing too); only G0000002's manager, whom no rule binds, starts one.
 */
const firstFactorStart = (status: number) => ({ ...everyone(403), otherManager: status });

const NAME = { last_name: '鈴木', first_name: '一郎', kana_last_name: 'すずき', kana_first_name: 'いちろう' };
const MEMBER_ID = 2;
const CONTACT_PERSON = { corporation_name: '株式会社デモ', department_name: '総務部', phone_number: '03-1234-5678', email: 'soumu@example.com', ...NAME };
const CONTACT = { ...CONTACT_PERSON, postal_code: '100-0005', address: '東京都千代田区丸の内1-1-1' };
const BILLING_CONTACT = { ...CONTACT_PERSON, cc_email: '', addressee: '' };
/** An application form (a start date long past: a manager's real run would be refused, nothing is stored). */
const SUBSCRIPTION = {
  service_ids: [9],
  admin_ids: [1],
  users: [{ ...NAME, email: 'learner@example.com' }],
  starts_on: '2020-01-06',
  billing_contact_id: 1,
  contact_id: 1,
};
/** G0000001's first contact and billing contact in a URL (stored as 1): their public ids are known once the app runs. */
const FIRST_CONTACT = '{first contact}';
const FIRST_BILLING_CONTACT = '{first billing contact}';
/** A single-sign-on connection's or domain's id that no organisation has (issue 45: random UUIDs). */
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
/** Routes of G0000001's managers: the member and the sessions of another organisation are refused. */
const MANAGERS_OF_ONE = (status: number) => ({ member: 403, manager: status, otherManager: 403, otherSession: 403 });

/** The identity provider's catch-all (oidc-provider answers every method itself). */
function providerCatchAll(url: string, statuses: Partial<Record<string, number>>): Record<string, Row> {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY'] as const;
  const example = url === '/oidc' ? '/oidc' : '/oidc/no-such-endpoint';
  return Object.fromEntries(methods.map((method) => [`${method} ${url}`, publicRoute({ method: method as InjectOptions['method'], url: example }, statuses[method] ?? 404)]));
}

const MATRIX: Record<string, Row> = {
  // the signed-in admin's own calls
  'GET /api/v2/admins/me/affiliations': signedInRoute({ url: '/api/v2/admins/me/affiliations' }, everyone(200)),
  'GET /api/v2/admin/re_authentication_expiration': signedInRoute({ url: '/api/v2/admin/re_authentication_expiration' }, everyone(200)),
  // issue 29: each admin's own factors only (no admin id in the path to get wrong)
  'GET /api/v2/organizations/:orgId/sign_in_rule': signedInRoute({ url: '/api/v2/organizations/1/sign_in_rule' }, { member: 200, manager: 200, otherManager: 403, otherSession: 403 }),
  'GET /api/v2/organizations/:orgId/overview': signedInRoute({ url: '/api/v2/organizations/1/overview' }, { member: 200, manager: 200, otherManager: 403, otherSession: 403 }),
  'PUT /api/v2/organizations/:orgId/sign_in_rule': signedInRoute({ method: 'PUT', url: '/api/v2/organizations/1/sign_in_rule', payload: { two_step_required: true } }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/admins/me/notification_settings': signedInRoute({ url: '/api/v2/admins/me/notification_settings' }, everyone(200)),
  'PUT /api/v2/admins/me/notification_settings': signedInRoute({ method: 'PUT', url: '/api/v2/admins/me/notification_settings', payload: { deadline_reminders: true } }, everyone(200)),
  'GET /api/v2/admins/me/two_step': signedInRoute({ url: '/api/v2/admins/me/two_step' }, everyone(200)),
  'POST /api/v2/admins/me/authenticator_app': signedInRoute({ method: 'POST', url: '/api/v2/admins/me/authenticator_app' }, firstFactorStart(201)),
  // the link is for the admins the rule binds, without a factor: not G0000002's manager
  'POST /api/v2/admins/me/two_step/enrolment_link': signedInRoute({ method: 'POST', url: '/api/v2/admins/me/two_step/enrolment_link' }, { ...everyone(204), otherManager: 403 }),
  'PUT /api/v2/admins/me/authenticator_app': signedInRoute({ method: 'PUT', url: '/api/v2/admins/me/authenticator_app', payload: { code: '000000' } }, everyone(422)),
  'DELETE /api/v2/admins/me/authenticator_app': signedInRoute({ method: 'DELETE', url: '/api/v2/admins/me/authenticator_app' }, everyone(404)),
  'POST /api/v2/admins/me/passkeys/registration_options': signedInRoute({ method: 'POST', url: '/api/v2/admins/me/passkeys/registration_options' }, firstFactorStart(200)),
  'POST /api/v2/admins/me/passkeys': signedInRoute({ method: 'POST', url: '/api/v2/admins/me/passkeys', payload: { name: 'Laptop', credential: '{}' } }, everyone(422)),
  'PATCH /api/v2/admins/me/passkeys/:id': signedInRoute({ method: 'PATCH', url: '/api/v2/admins/me/passkeys/999999', payload: { name: 'Laptop' } }, everyone(404)),
  'DELETE /api/v2/admins/me/passkeys/:id': signedInRoute({ method: 'DELETE', url: '/api/v2/admins/me/passkeys/999999' }, everyone(404)),
  // codes stand in for a factor: nobody here has one (issue 44)
  'POST /api/v2/admins/me/recovery_codes': signedInRoute({ method: 'POST', url: '/api/v2/admins/me/recovery_codes' }, everyone(403)),
  // only one's own password; the wrong current password shows the member got past the access checks
  'PUT /api/v2/admins/:adminId/password': signedInRoute(
    { method: 'PUT', url: `/api/v2/admins/${MEMBER_ID}/password`, payload: { current: 'NotMyPassw0rd!', new: 'Kz9!vQ2#mP7@wL4x' } },
    { member: 400, manager: 403, otherManager: 403, otherSession: 403 },
  ),
  // the organisation must be the session's, and the name one's own: the manager of G0000001 (admin 1) changes their
  // name through G0000002 only in a session signed in for G0000002
  'PATCH /api/v2/organizations/:orgId/affiliations/admins/:adminId': signedInRoute(
    { method: 'PATCH', url: '/api/v2/organizations/2/affiliations/admins/1', payload: NAME },
    { member: 403, manager: 403, otherManager: 403, otherSession: 200 },
  ),
  // the organisation's admins (G0000001, id 1): members and managers read; only a manager writes, never on their own row.
  // The manager's answers show they got past the access checks without changing anything: 304 (already a member),
  // 409 (no such affiliation; already activated)
  'GET /api/v2/organizations/:orgId/affiliations': signedInRoute(
    { url: '/api/v2/organizations/1/affiliations' },
    { member: 200, manager: 200, otherManager: 403, otherSession: 403 },
  ),
  'POST /api/v2/organizations/:orgId/affiliations': signedInRoute(
    { method: 'POST', url: '/api/v2/organizations/1/affiliations', payload: { email: 'member@example.com', role: 'manager' } },
    { member: 403, manager: 304, otherManager: 403, otherSession: 403 },
  ),
  'DELETE /api/v2/organizations/:orgId/affiliations/admins/:adminId': signedInRoute(
    { method: 'DELETE', url: '/api/v2/organizations/1/affiliations/admins/999999' },
    { member: 403, manager: 409, otherManager: 403, otherSession: 403 },
  ),
  'POST /api/v2/organizations/:orgId/affiliations/admins/:adminId/invitation': signedInRoute(
    { method: 'POST', url: `/api/v2/organizations/1/affiliations/admins/${MEMBER_ID}/invitation` },
    { member: 403, manager: 409, otherManager: 403, otherSession: 403 },
  ),
  'GET /api/v2/organizations/:orgId/product_admin_roles': signedInRoute(
    { url: '/api/v2/organizations/1/product_admin_roles?lang=en' },
    { member: 200, manager: 200, otherManager: 403, otherSession: 403 },
  ),
  // the catalogue of the session's organisation: every affiliated caller reads it; a service or group the organisation
  // does not use is unknown (G0000002 does not use emba, group 2)
  'GET /api/v2/services': signedInRoute({ url: '/api/v2/services' }, everyone(200)),
  'GET /api/v2/services/:id': signedInRoute({ url: '/api/v2/services/2?lang=en' }, { member: 200, manager: 200, otherManager: 404, otherSession: 404 }),
  'GET /api/v2/service_groups': signedInRoute({ url: '/api/v2/service_groups' }, everyone(200)),
  'GET /api/v2/service_groups/:id': signedInRoute({ url: '/api/v2/service_groups/1' }, everyone(200)),
  'GET /api/v2/service_groups/:id/services': signedInRoute({ url: '/api/v2/service_groups/2/services' }, { member: 200, manager: 200, otherManager: 404, otherSession: 404 }),
  // the application wizards' classes: managers of the organisation only
  'GET /api/v2/organizations/:orgId/project_classes/bundled': signedInRoute(
    { url: '/api/v2/organizations/1/project_classes/bundled' },
    { member: 403, manager: 200, otherManager: 403, otherSession: 403 },
  ),
  // the gls projects and one class of a project (Register Learners (class)): managers of the organisation only
  'GET /api/v2/organizations/:orgId/projects': signedInRoute({ url: '/api/v2/organizations/1/projects' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/organizations/:orgId/projects/:projectCode': signedInRoute({ url: '/api/v2/organizations/1/projects/PJ2026-001' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/organizations/:orgId/projects/:projectCode/classes/:projectClassId': signedInRoute(
    { url: '/api/v2/organizations/1/projects/PJ2026-001/classes/999999' },
    MANAGERS_OF_ONE(404),
  ),
  'GET /api/v2/organizations/:orgId/projects/:projectCode/corporate_subscriptions/:requestCode': signedInRoute(
    { url: '/api/v2/organizations/1/projects/PJ2026-001/corporate_subscriptions/A000000103' },
    MANAGERS_OF_ONE(200),
  ),
  // contacts and billing contacts of G0000001 (id 1; contact 1 and billing contact 1 are its): managers only, reading
  // too; the manager's 404 for an id the organisation does not have shows they got past the access checks
  'GET /api/v2/organizations/:orgId/contacts': signedInRoute({ url: '/api/v2/organizations/1/contacts' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/organizations/:orgId/contacts/:id': signedInRoute({ url: `/api/v2/organizations/1/contacts/${FIRST_CONTACT}` }, MANAGERS_OF_ONE(200)),
  'POST /api/v2/organizations/:orgId/contacts': signedInRoute({ method: 'POST', url: '/api/v2/organizations/1/contacts', payload: CONTACT }, MANAGERS_OF_ONE(201)),
  'PATCH /api/v2/organizations/:orgId/contacts/:id': signedInRoute({ method: 'PATCH', url: `/api/v2/organizations/1/contacts/${FIRST_CONTACT}`, payload: CONTACT }, MANAGERS_OF_ONE(200)),
  'DELETE /api/v2/organizations/:orgId/contacts/:id': signedInRoute({ method: 'DELETE', url: '/api/v2/organizations/1/contacts/999999' }, MANAGERS_OF_ONE(404)),
  'GET /api/v2/organizations/:orgId/billing_contacts': signedInRoute({ url: '/api/v2/organizations/1/billing_contacts' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/organizations/:orgId/billing_contacts/:id': signedInRoute({ url: `/api/v2/organizations/1/billing_contacts/${FIRST_BILLING_CONTACT}` }, MANAGERS_OF_ONE(200)),
  'POST /api/v2/organizations/:orgId/billing_contacts': signedInRoute({ method: 'POST', url: '/api/v2/organizations/1/billing_contacts', payload: BILLING_CONTACT }, MANAGERS_OF_ONE(201)),
  'PATCH /api/v2/organizations/:orgId/billing_contacts/:id': signedInRoute({ method: 'PATCH', url: `/api/v2/organizations/1/billing_contacts/${FIRST_BILLING_CONTACT}`, payload: BILLING_CONTACT }, MANAGERS_OF_ONE(200)),
  'DELETE /api/v2/organizations/:orgId/billing_contacts/:id': signedInRoute({ method: 'DELETE', url: '/api/v2/organizations/1/billing_contacts/999999' }, MANAGERS_OF_ONE(404)),
  // single sign-on with the organisation's own IdP (issue 45): G0000001's managers only. The manager's answers show they
  // got past the access checks: a new draft connection and a pending domain (201), an id the organisation does not have (404)
  'GET /api/v2/organizations/:orgId/sso_connections': signedInRoute({ url: '/api/v2/organizations/1/sso_connections' }, MANAGERS_OF_ONE(200)),
  'POST /api/v2/organizations/:orgId/sso_connections': signedInRoute(
    { method: 'POST', url: '/api/v2/organizations/1/sso_connections', payload: { protocol: 'saml', name: 'Matrix' } },
    MANAGERS_OF_ONE(201),
  ),
  'GET /api/v2/organizations/:orgId/sso_connections/:connectionId': signedInRoute({ url: `/api/v2/organizations/1/sso_connections/${UNKNOWN_UUID}` }, MANAGERS_OF_ONE(404)),
  'PATCH /api/v2/organizations/:orgId/sso_connections/:connectionId': signedInRoute(
    { method: 'PATCH', url: `/api/v2/organizations/1/sso_connections/${UNKNOWN_UUID}`, payload: { state: 'paused' } },
    MANAGERS_OF_ONE(404),
  ),
  'DELETE /api/v2/organizations/:orgId/sso_connections/:connectionId': signedInRoute({ method: 'DELETE', url: `/api/v2/organizations/1/sso_connections/${UNKNOWN_UUID}` }, MANAGERS_OF_ONE(404)),
  'POST /api/v2/organizations/:orgId/sso_connections/:connectionId/test': signedInRoute({ method: 'POST', url: `/api/v2/organizations/1/sso_connections/${UNKNOWN_UUID}/test` }, MANAGERS_OF_ONE(404)),
  'GET /api/v2/organizations/:orgId/sso_domains': signedInRoute({ url: '/api/v2/organizations/1/sso_domains' }, MANAGERS_OF_ONE(200)),
  'POST /api/v2/organizations/:orgId/sso_domains': signedInRoute({ method: 'POST', url: '/api/v2/organizations/1/sso_domains', payload: { domain: 'matrix.example.com' } }, MANAGERS_OF_ONE(201)),
  'POST /api/v2/organizations/:orgId/sso_domains/:domainId/verify': signedInRoute({ method: 'POST', url: `/api/v2/organizations/1/sso_domains/${UNKNOWN_UUID}/verify` }, MANAGERS_OF_ONE(404)),
  'PATCH /api/v2/organizations/:orgId/sso_domains/:domainId': signedInRoute(
    { method: 'PATCH', url: `/api/v2/organizations/1/sso_domains/${UNKNOWN_UUID}`, payload: { require_sso: false } },
    MANAGERS_OF_ONE(404),
  ),
  'DELETE /api/v2/organizations/:orgId/sso_domains/:domainId': signedInRoute({ method: 'DELETE', url: `/api/v2/organizations/1/sso_domains/${UNKNOWN_UUID}` }, MANAGERS_OF_ONE(404)),
  // the organisation's API clients (issue 46): G0000001's managers only (never a client: no scope). The manager's
  // answers show they got past the access checks: a new client (201), an id the organisation does not have (404)
  'GET /api/v2/organizations/:orgId/api_clients': signedInRoute({ url: '/api/v2/organizations/1/api_clients' }, MANAGERS_OF_ONE(200)),
  'POST /api/v2/organizations/:orgId/api_clients': signedInRoute({ method: 'POST', url: '/api/v2/organizations/1/api_clients', payload: { name: 'Matrix', scopes: ['audit:read'] } }, MANAGERS_OF_ONE(201)),
  'PATCH /api/v2/organizations/:orgId/api_clients/:clientId': signedInRoute({ method: 'PATCH', url: `/api/v2/organizations/1/api_clients/${UNKNOWN_UUID}`, payload: { name: 'Matrix' } }, MANAGERS_OF_ONE(404)),
  'POST /api/v2/organizations/:orgId/api_clients/:clientId/rotate_secret': signedInRoute({ method: 'POST', url: `/api/v2/organizations/1/api_clients/${UNKNOWN_UUID}/rotate_secret` }, MANAGERS_OF_ONE(404)),
  'DELETE /api/v2/organizations/:orgId/api_clients/:clientId': signedInRoute({ method: 'DELETE', url: `/api/v2/organizations/1/api_clients/${UNKNOWN_UUID}` }, MANAGERS_OF_ONE(404)),
  // webhooks (issue 46): G0000001's managers only. The manager's answers show they got past the access checks: a new
  // endpoint on loopback (201, demo mode), an id the organisation does not have (404)
  'GET /api/v2/organizations/:orgId/webhook_endpoints': signedInRoute({ url: '/api/v2/organizations/1/webhook_endpoints' }, MANAGERS_OF_ONE(200)),
  'POST /api/v2/organizations/:orgId/webhook_endpoints': signedInRoute(
    { method: 'POST', url: '/api/v2/organizations/1/webhook_endpoints', payload: { url: 'http://127.0.0.1:9/matrix', events: ['learners.updated'] } },
    MANAGERS_OF_ONE(201),
  ),
  'PATCH /api/v2/organizations/:orgId/webhook_endpoints/:endpointId': signedInRoute(
    { method: 'PATCH', url: `/api/v2/organizations/1/webhook_endpoints/${UNKNOWN_UUID}`, payload: { enabled: false } },
    MANAGERS_OF_ONE(404),
  ),
  'DELETE /api/v2/organizations/:orgId/webhook_endpoints/:endpointId': signedInRoute({ method: 'DELETE', url: `/api/v2/organizations/1/webhook_endpoints/${UNKNOWN_UUID}` }, MANAGERS_OF_ONE(404)),
  'GET /api/v2/organizations/:orgId/webhook_endpoints/:endpointId/deliveries': signedInRoute({ url: `/api/v2/organizations/1/webhook_endpoints/${UNKNOWN_UUID}/deliveries` }, MANAGERS_OF_ONE(404)),
  'POST /api/v2/organizations/:orgId/webhook_endpoints/:endpointId/deliveries/:deliveryId/resend': signedInRoute(
    { method: 'POST', url: `/api/v2/organizations/1/webhook_endpoints/${UNKNOWN_UUID}/deliveries/${UNKNOWN_UUID}/resend` },
    MANAGERS_OF_ONE(404),
  ),
  'POST /api/v2/organizations/:orgId/webhook_endpoints/:endpointId/test_events': signedInRoute({ method: 'POST', url: `/api/v2/organizations/1/webhook_endpoints/${UNKNOWN_UUID}/test_events` }, MANAGERS_OF_ONE(404)),
  // corporate subscriptions of G0000001 (demo: A000000101 updatable emba, A000000102 started newemba, A000000103 gls
  // with a class; A000000105 is G0000002's): managers only. The manager's answers show they got past the access checks
  // without changing anything: a dry run (200), 422 (the start date has passed; no class), 404 (unknown)
  'GET /api/v2/organizations/:orgId/corporate_subscriptions': signedInRoute({ url: '/api/v2/organizations/1/corporate_subscriptions' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode': signedInRoute({ url: '/api/v2/organizations/1/corporate_subscriptions/A000000101' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode/calendar': signedInRoute({ url: '/api/v2/organizations/1/corporate_subscriptions/A000000101/calendar' }, MANAGERS_OF_ONE(200)),
  'POST /api/v2/organizations/:orgId/corporate_subscriptions': signedInRoute(
    { method: 'POST', url: '/api/v2/organizations/1/corporate_subscriptions?dryrun=true', payload: SUBSCRIPTION },
    MANAGERS_OF_ONE(422),
  ),
  'PATCH /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode': signedInRoute(
    { method: 'PATCH', url: '/api/v2/organizations/1/corporate_subscriptions/A000000102?dryrun=true', payload: SUBSCRIPTION },
    MANAGERS_OF_ONE(422),
  ),
  'PATCH /api/v2/organizations/:orgId/confirmed_corporate_subscriptions/:requestCode': signedInRoute(
    { method: 'PATCH', url: '/api/v2/organizations/1/confirmed_corporate_subscriptions/A000000101?dryrun=true', payload: SUBSCRIPTION },
    MANAGERS_OF_ONE(422),
  ),
  'DELETE /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode': signedInRoute(
    { method: 'DELETE', url: '/api/v2/organizations/1/corporate_subscriptions/A999999999' },
    MANAGERS_OF_ONE(404),
  ),
  // the organisation's learners (Users page): managers of the organisation only. The manager's answers show they got
  // past the access checks without changing anything: 404 (no such learner), 400 (no file; rows missing)
  'GET /api/v2/organizations/:orgId/users': signedInRoute(
    { url: '/api/v2/organizations/1/users' },
    { member: 403, manager: 200, otherManager: 403, otherSession: 403 },
  ),
  'GET /api/v2/organizations/:orgId/users/csv': signedInRoute(
    { url: '/api/v2/organizations/1/users/csv' },
    { member: 403, manager: 200, otherManager: 403, otherSession: 403 },
  ),
  'GET /api/v2/organizations/:orgId/users/:userId': signedInRoute({ url: '/api/v2/organizations/1/users/1' }, MANAGERS_OF_ONE(200)),
  'PATCH /api/v2/organizations/:orgId/users/:userId': signedInRoute(
    { method: 'PATCH', url: '/api/v2/organizations/1/users/999999', payload: { last_name: 'a', first_name: 'b', kana_last_name: 'c', kana_first_name: 'd', email: 'e@example.com', name_id: '' } },
    { member: 403, manager: 404, otherManager: 403, otherSession: 403 },
  ),
  'POST /api/v2/organizations/:orgId/users/preview': signedInRoute(
    { method: 'POST', url: '/api/v2/organizations/1/users/preview', payload: {} },
    { member: 403, manager: 400, otherManager: 403, otherSession: 403 },
  ),
  'POST /api/v2/organizations/:orgId/users/bulk_update': signedInRoute(
    { method: 'POST', url: '/api/v2/organizations/1/users/bulk_update', payload: { users: [] } },
    { member: 403, manager: 400, otherManager: 403, otherSession: 403 },
  ),
  // the audit trail of G0000001 (issue 21): its managers only, the list and the export
  'GET /api/v2/organizations/:orgId/audit_events': signedInRoute({ url: '/api/v2/organizations/1/audit_events?limit=5' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/organizations/:orgId/audit_events/csv': signedInRoute({ url: '/api/v2/organizations/1/audit_events/csv?action=membership.roleChanged' }, MANAGERS_OF_ONE(200)),
  'GET /api/v2/enabled_feature_flags/:name': signedInRoute({ url: '/api/v2/enabled_feature_flags/product_admin_roles' }, everyone(200)),
  // tokens for the session's admin and organisation: any affiliated admin, in a session of any of their organisations
  'GET /api/v2/admin/single-sign-on': signedInRoute({ url: '/api/v2/admin/single-sign-on?gpc=demo-partner' }, everyone(200)),
  'GET /api/v2/admin/single-sign-on/check': signedInRoute({ url: '/api/v2/admin/single-sign-on/check?gpc=demo-partner' }, everyone(204)),
  // the partner's call, authenticated by the partner's secret (HTTP Basic), never by an admin token
  'POST /api/v2/single-sign-on/verify': publicRoute(
    { method: 'POST', url: '/api/v2/single-sign-on/verify', payload: { guq: 'x', gss: '', gui: '1', goi: 'G0000001', gul: 'ja', ghs: '1', gsg: 'x' } },
    401,
  ),

  // public API: an admin token changes nothing
  'POST /api/v2/registration_requests': publicRoute({ method: 'POST', url: '/api/v2/registration_requests', payload: {} }, 422),
  'POST /api/v2/client_errors': publicRoute({ method: 'POST', url: '/api/v2/client_errors', payload: { message: 'matrix' } }, 204),
  'POST /api/v2/admin/account_activation_email': publicRoute({ method: 'POST', url: '/api/v2/admin/account_activation_email', payload: {} }, 422),
  'GET /api/v2/admin/validate_confirm_email_token': publicRoute({ url: '/api/v2/admin/validate_confirm_email_token' }, 401),
  'PUT /api/v2/admins/:adminId': publicRoute({ method: 'PUT', url: `/api/v2/admins/${MEMBER_ID}`, payload: {} }, 422),
  'POST /api/v2/admin/reset_password_token_call': publicRoute({ method: 'POST', url: '/api/v2/admin/reset_password_token_call', payload: {} }, 422),
  'GET /api/v2/admin/validate_reset_password_token': publicRoute({ url: '/api/v2/admin/validate_reset_password_token' }, 401),
  'POST /api/v2/admins/:adminId/password': publicRoute({ method: 'POST', url: `/api/v2/admins/${MEMBER_ID}/password`, payload: {} }, 422),
  'GET /api/v2/captcha/challenge': publicRoute({ url: '/api/v2/captcha/challenge' }, 200),
  'GET /api/v1/notices': publicRoute({ url: '/api/v1/notices' }, 200),
  'GET /api/v2/announcements/articles': publicRoute({ url: '/api/v2/announcements/articles?lang=en' }, 200),
  'GET /api/v2/portal_settings': publicRoute({ url: '/api/v2/portal_settings' }, 200),

  // health, the API document, the outbox (demo only), the identity provider's own pages, the app
  'GET /healthz': publicRoute({ url: '/healthz' }, 200),
  'GET /readyz': publicRoute({ url: '/readyz' }, 200),
  // open in demo mode (this matrix); outside it only with METRICS_TOKEN, never to an admin's token nor anonymously
  // (test/server/api/metrics.test.ts)
  'GET /metrics': publicRoute({ url: '/metrics' }, 200),
  'GET /api/docs': publicRoute({ url: '/api/docs' }, 200),
  'GET /api/docs/static/index.html': publicRoute({ url: '/api/docs/static/index.html' }, 302),
  'GET /api/docs/static/swagger-initializer.js': publicRoute({ url: '/api/docs/static/swagger-initializer.js' }, 200),
  'GET /api/docs/json': publicRoute({ url: '/api/docs/json' }, 200),
  'GET /api/docs/yaml': publicRoute({ url: '/api/docs/yaml' }, 200),
  'GET /api/docs/static/*': publicRoute({ url: '/api/docs/static/swagger-ui.css' }, 200),
  // the /dev pages answer this machine only: every caller here comes from 192.0.2.x (test/server/demoMode.test.ts has the local ones)
  'GET /dev/mails': publicRoute({ url: '/dev/mails' }, 403),
  'GET /dev/mails.json': publicRoute({ url: '/dev/mails.json' }, 403),
  'GET /dev/mails/:file': publicRoute({ url: '/dev/mails/999999.html' }, 403),
  'GET /dev/screens': publicRoute({ url: '/dev/screens' }, 403),
  'GET /dev/partner': publicRoute({ url: '/dev/partner' }, 403),
  // the demo identity provider (issue 45 §8): its sign-in page and oidc-provider's endpoints
  'GET /dev/idp/interaction/:uid': publicRoute({ url: '/dev/idp/interaction/unknown' }, 403),
  'POST /dev/idp/interaction/:uid/login': publicRoute({ method: 'POST', url: '/dev/idp/interaction/unknown/login', payload: {} }, 403),
  ...Object.fromEntries(
    ['/dev/idp', '/dev/idp/*'].flatMap((url) =>
      (['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY'] as const).map((method) => [`${method} ${url}`, publicRoute({ method: method as InjectOptions['method'], url: '/dev/idp/jwks' }, 403)]),
    ),
  ),
  // the SAML service provider's metadata, which IdPs fetch without a session (issue 45)
  'GET /saml/:connectionId/metadata': publicRoute({ url: `/saml/${UNKNOWN_UUID}/metadata` }, 404),
  'GET /oidc/assets/:name': publicRoute({ url: '/oidc/assets/signin.css' }, 200),
  'GET /oidc/interaction/:uid': publicRoute({ url: '/oidc/interaction/unknown' }, 400),
  'POST /oidc/interaction/:uid/login': publicRoute({ method: 'POST', url: '/oidc/interaction/unknown/login', payload: {} }, 400),
  'POST /oidc/interaction/:uid/organization': publicRoute({ method: 'POST', url: '/oidc/interaction/unknown/organization', payload: {} }, 400),
  'POST /oidc/interaction/:uid/passkey/options': publicRoute({ method: 'POST', url: '/oidc/interaction/unknown/passkey/options' }, 400),
  'GET /oidc/interaction/:uid/passkey': publicRoute({ url: '/oidc/interaction/unknown/passkey' }, 400),
  'POST /oidc/interaction/:uid/passkey': publicRoute({ method: 'POST', url: '/oidc/interaction/unknown/passkey', payload: {} }, 400),
  'GET /oidc/interaction/:uid/two_step': publicRoute({ url: '/oidc/interaction/unknown/two_step' }, 400),
  // the sign-in page's home-realm question (issue 45): only the browser of an open sign-in page is answered
  'POST /oidc/interaction/:uid/realm': publicRoute({ method: 'POST', url: '/oidc/interaction/unknown/realm', payload: { email: 'someone@example.com' } }, 400),
  // single sign-on (issue 45): the IdP's answer, and its way back to the interaction
  'GET /oidc/federation/callback': publicRoute({ url: '/oidc/federation/callback' }, 400),
  'GET /oidc/interaction/:uid/federation': publicRoute({ url: '/oidc/interaction/unknown/federation' }, 400),
  // SAML: the IdP's answer POSTed cross-site to the ACS, and its way back to the interaction
  'POST /saml/:connectionId/acs': publicRoute({ method: 'POST', url: `/saml/${UNKNOWN_UUID}/acs`, payload: {} }, 400),
  'GET /oidc/interaction/:uid/saml': publicRoute({ url: '/oidc/interaction/unknown/saml' }, 400),
  // 'Test connection' (issue 45): the ticket is the authority, taken once; the answers go to the browser that started it
  'GET /oidc/connection_test/:ticket': publicRoute({ url: '/oidc/connection_test/an-unknown-ticket-of-somebody' }, 400),
  'GET /oidc/connection_test/oidc': publicRoute({ url: '/oidc/connection_test/oidc?state=an-unknown-state-of-somebody' }, 400),
  'GET /oidc/connection_test/saml': publicRoute({ url: '/oidc/connection_test/saml?key=an-unknown-key-of-somebody' }, 400),
  'POST /oidc/interaction/:uid/two_step': publicRoute({ method: 'POST', url: '/oidc/interaction/unknown/two_step', payload: {} }, 400),
  // an unknown endpoint is 404; QUERY, a method without a body convention here, is refused as a bad request
  ...providerCatchAll('/oidc', { QUERY: 400 }),
  ...providerCatchAll('/oidc/*', { QUERY: 400 }),
  'GET /*': publicRoute({ url: '/no-such-asset.js' }, 404),
};

/**
 * The scope column (issue 46): the scope an organisation's API client needs for each route open to clients, as
 * api/clientAuth.ts ROUTE_SCOPES declares it. The matrix's client caller (an API client of G0000001 holding every
 * scope, Authorization: Bearer) gets a scoped route's manager answer; a signed-in route without a scope refuses it,
 * 403 insufficient_scope; a public route answers it as anyone.
 */
const SCOPES: Record<string, ApiClientScope> = {
  'GET /api/v2/organizations/:orgId/corporate_subscriptions': 'subscriptions:read',
  'GET /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode': 'subscriptions:read',
  'GET /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode/calendar': 'subscriptions:read',
  'POST /api/v2/organizations/:orgId/corporate_subscriptions': 'subscriptions:write',
  'PATCH /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode': 'subscriptions:write',
  'PATCH /api/v2/organizations/:orgId/confirmed_corporate_subscriptions/:requestCode': 'subscriptions:write',
  'DELETE /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode': 'subscriptions:write',
  'GET /api/v2/organizations/:orgId/users': 'learners:read',
  'GET /api/v2/organizations/:orgId/users/csv': 'learners:read',
  'GET /api/v2/organizations/:orgId/users/:userId': 'learners:read',
  'PATCH /api/v2/organizations/:orgId/users/:userId': 'learners:write',
  'POST /api/v2/organizations/:orgId/users/preview': 'learners:write',
  'POST /api/v2/organizations/:orgId/users/bulk_update': 'learners:write',
  'GET /api/v2/organizations/:orgId/contacts': 'contacts:read',
  'GET /api/v2/organizations/:orgId/contacts/:id': 'contacts:read',
  'GET /api/v2/organizations/:orgId/billing_contacts': 'contacts:read',
  'GET /api/v2/organizations/:orgId/billing_contacts/:id': 'contacts:read',
  'GET /api/v2/organizations/:orgId/audit_events': 'audit:read',
  'GET /api/v2/organizations/:orgId/audit_events/csv': 'audit:read',
};

/** The client caller's answer on a row (see SCOPES). */
function clientExpected(route: string, expected: Expected): number {
  if (expected.member === expected.anonymous) return expected.anonymous; // a public route
  return SCOPES[route] ? expected.manager : 403;
}

describe('Route authorisation matrix', () => {
  // no browser build: the app's pages answer 503 whether or not a build lies in ./dist
  // the client caller calls every row: its bucket must not run dry here (limits: test/server/api/apiClients.test.ts)
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000', DIST_DIR: path.join(os.tmpdir(), 'portal-matrix-no-build'), API_CLIENT_RATE_BURST: '100000' } });
  const headers = {} as Record<Caller, Record<string, string>>;
  let clientHeaders: Record<string, string>;

  before(async () => {
    // the demo data has no manager of G0000002: add one
    const organization = await ctx.db.selectFrom('organizations').select('id').where('gloplaId', '=', 'G0000002').executeTakeFirstOrThrow();
    const other = await ctx.db
      .insertInto('admins')
      .values({ email: 'other-manager@example.com', firstName: '次郎', lastName: '田中', kanaFirstName: 'じろう', kanaLastName: 'たなか', passwordHash: await hashPassword('DemoPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('affiliations').values({ adminId: other.id, organizationId: organization.id, role: 'manager' }).execute();

    headers.anonymous = {};
    headers.forged = bearer(await accessToken(ctx.app, { sub: String(MEMBER_ID), foreignKey: true }));
    headers.expired = bearer(await accessToken(ctx.app, { sub: String(MEMBER_ID), expiresIn: -5 }));
    // G0000001 requires two-step sign-in: its admins' sessions here were signed in in two steps, but mfaMissing's
    await ctx.db.updateTable('organizations').set({ twoStepRequired: true }).where('gloplaId', '=', 'G0000001').execute();
    const twoSteps = ['pwd', 'otp', 'mfa'];
    headers.member = bearer(await accessToken(ctx.app, { sub: String(MEMBER_ID), amr: twoSteps }));
    headers.manager = bearer(await accessToken(ctx.app, { sub: '1', amr: twoSteps }));
    headers.otherManager = bearer(await accessToken(ctx.app, { sub: String(other.id), gloplaId: 'G0000002' }));
    headers.otherSession = bearer(await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000002' }));
    headers.mfaMissing = bearer(await accessToken(ctx.app, { sub: '1' }));
    // an API client of G0000001 with every scope, its token from the provider's client-credentials grant (issue 46)
    const made = (await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/api_clients', headers: headers.manager, payload: { name: 'Matrix client', scopes: API_CLIENT_SCOPES } })).json();
    const basic = Buffer.from(`${made.api_client.client_id}:${made.client_secret}`).toString('base64');
    const grant = await ctx.app.inject({ method: 'POST', url: '/oidc/token', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=client_credentials' });
    clientHeaders = { authorization: `Bearer ${grant.json().access_token}` };
  });

  it("has the scope column of every route open to API clients, as the routes declare it (api/clientAuth.ts ROUTE_SCOPES)", () => {
    expect(Object.fromEntries(ROUTE_SCOPES)).to.deep.equal(SCOPES);
    expect(Object.keys(SCOPES).filter((route) => !(route in MATRIX)), 'scopes of no route').to.deep.equal([]);
  });

  it('has a row for every route Fastify registered, and no row for a route that is gone', () => {
    const routes = [...new Set(ctx.app.registeredRoutes)].sort();
    expect(routes.filter((route) => !(route in MATRIX)), 'routes without a row').to.deep.equal([]);
    expect(Object.keys(MATRIX).filter((route) => !routes.includes(route)), 'rows without a route').to.deep.equal([]);
  });

  // issue 21: no write without its audit trail; `[]` is a declaration too (a write no organisation's trail shows)
  it('has the audit actions of every write route declared in its config', () => {
    const undeclared = [...ctx.app.routeAudit].filter(([route, audit]) => !/^(GET|HEAD|OPTIONS) /.test(route) && audit === undefined).map(([route]) => route);
    expect(undeclared, 'write routes without config.audit').to.deep.equal([]);
  });

  for (const [route, { request: row, expected }] of Object.entries(MATRIX)) {
    it(route, async () => {
      const url = String(row.url)
        .replace(FIRST_CONTACT, String(ctx.app.publicIds.contact.toPublic(1)))
        .replace(FIRST_BILLING_CONTACT, String(ctx.app.publicIds.billingContact.toPublic(1)));
      const request = { ...row, url };
      const seen = {} as Record<Caller, number>;
      for (const [index, caller] of CALLERS.entries()) {
        // each caller from its own address, so per-address rate limits do not mix the callers up
        const response = await ctx.app.inject({ ...request, headers: headers[caller], remoteAddress: `192.0.2.${10 + index}` } as InjectOptions);
        seen[caller] = response.statusCode;
        if (caller === 'mfaMissing' && response.statusCode === 403 && expected.manager !== 403) expect(response.json(), `${route} without two steps`).to.deep.equal({ error: 'mfa_required' });
        if (response.statusCode === 401 && expected.anonymous === 401 && expected.member !== 401) {
          const code = { anonymous: API_ERROR.invalidAccessToken, forged: API_ERROR.invalidAccessToken, expired: API_ERROR.accessTokenExpired }[caller as 'anonymous'];
          expect(response.json(), `${route} as ${caller}`).to.deep.equal({ error: code });
        }
      }
      const client = await ctx.app.inject({ ...request, headers: clientHeaders, remoteAddress: '192.0.2.99' } as InjectOptions);
      if (client.statusCode === 403 && !SCOPES[route] && expected.member !== expected.anonymous) expect(client.json(), `${route} as an API client`).to.deep.equal({ error: 'insufficient_scope' });
      expect({ ...seen, client: client.statusCode }).to.deep.equal({ ...expected, client: clientExpected(route, expected) });
    });
  }

  // issue 28: the access check comes before the version's, so a refused caller learns nothing of a record's version
  it('refuses the callers a write refuses in the same way when they send If-Match (a stale tag, garbage, *)', async () => {
    const writes = Object.entries(MATRIX).filter(([route]) => /^(PATCH|PUT|DELETE) \/api\//.test(route));
    expect(writes.length).to.be.greaterThan(10);
    for (const [route, { request: row, expected }] of writes) {
      const url = String(row.url)
        .replace(FIRST_CONTACT, String(ctx.app.publicIds.contact.toPublic(1)))
        .replace(FIRST_BILLING_CONTACT, String(ctx.app.publicIds.billingContact.toPublic(1)));
      for (const [index, caller] of CALLERS.entries()) {
        if (expected[caller] !== 401 && expected[caller] !== 403) continue;
        for (const ifMatch of ['"0"', 'garbage', '*']) {
          const response = await ctx.app.inject({ ...row, url, headers: { ...headers[caller], 'if-match': ifMatch }, remoteAddress: `192.0.2.${10 + index}` } as InjectOptions);
          expect(response.statusCode, `${route} as ${caller} with If-Match ${ifMatch}`).to.equal(expected[caller]);
        }
      }
    }
  });

  // after the rows (they use these sessions): what a manager does in G0000002 leaves G0000001 alone (issue 15, finding 7)
  describe("one organisation's actions leave another's sessions and invitations alone", () => {
    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, caller: Record<string, string>, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url: `/api/v2/${url}`, headers: caller, ...(payload ? { payload } : {}) });
    const linkTo = async (email: string) => {
      const mails: Array<{ to: string; links: string[] }> = (await ctx.app.inject({ url: '/dev/mails.json' })).json();
      return /\/activate\/([^?]+)/.exec(mails.find((mail) => mail.to === email)!.links[0]!)![1]!;
    };
    const linkStatus = async (token: string) =>
      (await ctx.app.inject({ url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': `Bearer ${token}` } })).statusCode;

    it("a role change in G0000002 ends the admin's G0000002 session only", async () => {
      const sessionOfOne = bearer(await accessToken(ctx.app, { sub: '1', amr: ['pwd', 'otp', 'mfa'] }));
      const sessionOfTwo = bearer(await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000002' }));
      await new Promise((resolve) => setTimeout(resolve, 1100)); // past the second the tokens were issued in
      expect((await call('PATCH', 'organizations/2/affiliations/admins/1', headers.otherManager, { role: 'manager' })).statusCode).to.equal(200);
      expect((await call('GET', 'organizations/1/affiliations', sessionOfOne)).statusCode).to.equal(200);
      expect((await call('GET', 'organizations/2/affiliations', sessionOfTwo)).statusCode).to.equal(401);
      expect((await call('PATCH', 'organizations/2/affiliations/admins/1', headers.otherManager, { role: 'member' })).statusCode).to.equal(200);
    });

    it("an invitation from G0000002 leaves G0000001's open invitation of the same address working", async () => {
      expect((await call('POST', 'organizations/1/affiliations', headers.manager, { email: 'pending-in-one@example.com', role: 'member' })).statusCode).to.equal(201);
      const linkOfOne = await linkTo('pending-in-one@example.com');
      expect((await call('POST', 'organizations/2/affiliations', headers.otherManager, { email: 'pending-in-one@example.com', role: 'member' })).statusCode).to.equal(201);
      expect(await linkStatus(linkOfOne)).to.equal(200);
      const invitee = (await call('GET', 'organizations/1/affiliations', headers.manager)).json().affiliations.find((row: { admin: { email: string } }) => row.admin.email === 'pending-in-one@example.com');
      expect(invitee.admin.invitation_expired).to.equal(false);
    });
  });
});
