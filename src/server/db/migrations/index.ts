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

export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0010_accounts': m0010,
  '0020_identity_provider': m0020,
  '0030_hardening_identity': m0030,
  '0031_hardening_inputs': m0031,
  '0032_memberships': m0032,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
