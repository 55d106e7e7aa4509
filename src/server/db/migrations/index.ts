/**
 * Every migration, in order. Listed statically (not read from the directory) so the Migrator works
 * the same under tsx, a bundler or compiled output. Add a new file and one line here.
 */
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_initial.js';
import * as m0010 from './0010_accounts.js';
import * as m0020 from './0020_identity_provider.js';
import * as m0030 from './0030_hardening_identity.js';
import * as m0031 from './0031_hardening_inputs.js';
import * as m0032 from './0032_memberships.js';
import * as m0040 from './0040_catalogue.js';
import * as m0042 from './0042_announcement_articles.js';
import * as m0043 from './0043_single_sign_on.js';
import * as m0050 from './0050_retention_indexes.js';
import * as m0060 from './0060_contacts.js';
import * as m0061 from './0061_organization_users.js';
import * as m0070 from './0070_corporate_subscriptions.js';
import * as m0080 from './0080_organization_scoped_tokens.js';
import * as m0081 from './0081_idempotency_records.js';
import * as m0085 from './0085_token_validity_notifications.js';
import * as m0086 from './0086_class_periods.js';
import * as m0087 from './0087_audit_events.js';
import * as m0088 from './0088_affiliation_sign_ins.js';
import * as m0089 from './0089_audit_filter_indexes.js';
import * as m0090 from './0090_learner_email_index.js';
import * as m0091 from './0091_list_indexes.js';
import * as m0092 from './0092_two_step_sign_in.js';
import * as m0093 from './0093_two_step_rule.js';
import * as m0094 from './0094_passkeys.js';
import * as m0095 from './0095_deadline_reminders.js';
import * as m0098 from './0098_two_step_hardening.js';
import * as m0100 from './0100_sso_connections.js';
import * as m0101 from './0101_saml_requests.js';
import * as m0102 from './0102_sso_certificate_reminders.js';
import * as m0103 from './0103_api_clients.js';
import * as m0104 from './0104_rate_limit_buckets.js';
import * as m0105 from './0105_audit_api_client_actor.js';
import * as m0106 from './0106_webhook_endpoints.js';
import * as m0107 from './0107_webhook_confirmations.js';
import * as m0109 from './0109_sync_updated_at.js';
import * as m0110 from './0110_sync_tombstones.js';
import * as m0111 from './0111_application_learner_count.js';
import * as m0112 from './0112_application_page_indexes.js';
import * as m0113 from './0113_list_versions.js';
import * as m0114 from './0114_audit_target_index.js';

export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0010_accounts': m0010,
  '0020_identity_provider': m0020,
  '0030_hardening_identity': m0030,
  '0031_hardening_inputs': m0031,
  '0032_memberships': m0032,
  '0040_catalogue': m0040,
  '0042_announcement_articles': m0042,
  '0043_single_sign_on': m0043,
  '0050_retention_indexes': m0050,
  '0060_contacts': m0060,
  '0061_organization_users': m0061,
  '0070_corporate_subscriptions': m0070,
  '0080_organization_scoped_tokens': m0080,
  '0081_idempotency_records': m0081,
  '0085_token_validity_notifications': m0085,
  '0086_class_periods': m0086,
  '0087_audit_events': m0087,
  '0088_affiliation_sign_ins': m0088,
  '0089_audit_filter_indexes': m0089,
  '0090_learner_email_index': m0090,
  '0091_list_indexes': m0091,
  '0092_two_step_sign_in': m0092,
  '0093_two_step_rule': m0093,
  '0094_passkeys': m0094,
  '0095_deadline_reminders': m0095,
  '0098_two_step_hardening': m0098,
  '0100_sso_connections': m0100,
  '0101_saml_requests': m0101,
  '0102_sso_certificate_reminders': m0102,
  '0103_api_clients': m0103,
  '0104_rate_limit_buckets': m0104,
  '0105_audit_api_client_actor': m0105,
  '0106_webhook_endpoints': m0106,
  '0107_webhook_confirmations': m0107,
  '0109_sync_updated_at': m0109,
  '0110_sync_tombstones': m0110,
  '0111_application_learner_count': m0111,
  '0112_application_page_indexes': m0112,
  '0113_list_versions': m0113,
  '0114_audit_target_index': m0114,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
