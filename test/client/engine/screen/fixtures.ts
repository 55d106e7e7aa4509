/**
 * What the fake API answers in the screen tests, in the wire's snake_case: one record of each kind, and the fake routes
 * of an organisation's contacts. Each test overrides what it is about (`wireContact({ department_name: '総務部' })`).
 */
import { jsonResponse, type Route } from '../../api/harness.js';

type Overrides = Record<string, unknown>;

/** A contact (delivery address) of organisation 1. */
export const wireContact = (overrides: Overrides = {}) => ({
  id: 7,
  organization_id: 1,
  corporation_name: '株式会社デモ',
  department_name: '人事部',
  postal_code: '100-0005',
  address: '東京都千代田区丸の内1-1-1',
  last_name: '佐藤',
  first_name: '花子',
  kana_last_name: 'さとう',
  kana_first_name: 'はなこ',
  phone_number: '03-1234-5678',
  email: 'hr@example.com',
  etag: '"101"',
  ...overrides,
});

/** A billing contact of organisation 1: no CC, no addressee. */
export const wireBillingContact = (overrides: Overrides = {}) => ({
  id: 3,
  organization_id: 1,
  corporation_name: '株式会社デモ',
  department_name: '経理部',
  last_name: '鈴木',
  first_name: '一郎',
  kana_last_name: 'すずき',
  kana_first_name: 'いちろう',
  phone_number: '03-1111-2222',
  email: 'billing@example.com',
  cc_email: '',
  addressee: '',
  etag: '"201"',
  ...overrides,
});

/** A service as GET services/{id} and a group's services answer it (its group named after it unless told). */
export const wireService = (id: number, name: string, overrides: Overrides = {}) => ({
  id,
  name,
  subtitle: '',
  summary: '',
  description: `About ${name}.`,
  thumbnail_url: null,
  image_url: null,
  discontinued: false,
  last_starts_on: null,
  urls: [],
  service_group: { id, name, urls: [] },
  ...overrides,
});

/** The organisation's contact lists, as the wizards load them. */
export const contactRoutes = (contacts: unknown[] = [wireContact()], billingContacts: unknown[] = [wireBillingContact()]): Record<string, Route> => ({
  'GET /api/v2/organizations/1/contacts': () => jsonResponse(200, { contacts }),
  'GET /api/v2/organizations/1/billing_contacts': () => jsonResponse(200, { billing_contacts: billingContacts }),
});
