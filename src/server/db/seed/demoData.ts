/**
 * The demo data of DESIGN §4: what a fresh installation shows so the portal can be tried at once.
 * Plain data; seed/index.ts writes it. URLs point at example.com hosts (RFC 2606).
 */
import type { LinkCategory, LocalizedText, ProjectClassKind, ServiceSelection } from '../types.js';

export const DEMO_PASSWORD = 'DemoPassw0rd!';

export const demoOrganizations = [
  {
    gloplaId: 'G0000001',
    corporationCode: 1001,
    gloplaIdName: 'Demo Corporation',
    corporationAccountName: 'Demo Corporation',
    corporationOfficialName: '株式会社デモ',
    corporationAccountCode: 'DEMO0001',
  },
  {
    gloplaId: 'G0000002',
    corporationCode: 1002,
    gloplaIdName: 'Sample Trading',
    corporationAccountName: 'Sample Trading',
    corporationOfficialName: 'サンプル商事株式会社',
    corporationAccountCode: 'SAMPLE0002',
  },
];

export interface DemoAdmin {
  email: string;
  /** undefined: invited, not activated, no password. */
  password?: string;
  /** A not-activated admin's invitation (an activation link nobody knows): open for 72 hours, or expired a day ago. */
  invitation?: 'open' | 'expired';
  lastName?: string;
  firstName?: string;
  kanaLastName?: string;
  kanaFirstName?: string;
  latinLastName?: string;
  latinFirstName?: string;
  affiliations: { gloplaId: string; role: 'manager' | 'member' }[];
}

export const demoAdmins: DemoAdmin[] = [
  {
    email: 'manager@example.com',
    password: DEMO_PASSWORD,
    lastName: '山田',
    firstName: '太郎',
    kanaLastName: 'やまだ',
    kanaFirstName: 'たろう',
    latinLastName: 'Yamada',
    latinFirstName: 'Taro',
    affiliations: [
      { gloplaId: 'G0000001', role: 'manager' },
      { gloplaId: 'G0000002', role: 'member' },
    ],
  },
  {
    email: 'member@example.com',
    password: DEMO_PASSWORD,
    lastName: '佐藤',
    firstName: '花子',
    kanaLastName: 'さとう',
    kanaFirstName: 'はなこ',
    affiliations: [{ gloplaId: 'G0000001', role: 'member' }],
  },
  {
    email: 'pending@example.com',
    affiliations: [{ gloplaId: 'G0000001', role: 'member' }],
  },
  // more admins of G0000001, so Manage Admin Accounts has a list to show (G0000002 keeps no manager)
  {
    email: 'manager2@example.com',
    password: DEMO_PASSWORD,
    lastName: '高橋',
    firstName: '美咲',
    kanaLastName: 'たかはし',
    kanaFirstName: 'みさき',
    affiliations: [{ gloplaId: 'G0000001', role: 'manager' }],
  },
  {
    email: 'support@example.com',
    password: DEMO_PASSWORD,
    lastName: '鈴木',
    firstName: '一郎',
    kanaLastName: 'すずき',
    kanaFirstName: 'いちろう',
    affiliations: [{ gloplaId: 'G0000001', role: 'member' }],
  },
  {
    email: 'invited@example.com',
    invitation: 'open',
    affiliations: [{ gloplaId: 'G0000001', role: 'member' }],
  },
  {
    email: 'late@example.com',
    invitation: 'expired',
    affiliations: [{ gloplaId: 'G0000001', role: 'manager' }],
  },
];

interface DemoProductAdminRole {
  email: string;
  gloplaId: string;
  productName: LocalizedText;
  role: LocalizedText;
  helpUrl: string;
}

const ROLE_HELP = 'https://help.example.com/admin-roles';

/** SPEC 2.14 Admin Permissions: the demo admins' roles in the provider's products, per organisation. */
export const demoProductAdminRoles: DemoProductAdminRole[] = [
  { email: 'manager@example.com', gloplaId: 'G0000001', productName: { ja: '見放題ライブラリ', en: 'Unlimited Library' }, role: { ja: '企業管理者', en: 'Corporate administrator' }, helpUrl: `${ROLE_HELP}/hodai` },
  { email: 'manager@example.com', gloplaId: 'G0000001', productName: { ja: '新オンラインMBA', en: 'New Online MBA' }, role: { ja: '受講管理者', en: 'Learning manager' }, helpUrl: `${ROLE_HELP}/newemba` },
  { email: 'manager@example.com', gloplaId: 'G0000001', productName: { ja: 'クラス型研修', en: 'Class-based Training' }, role: { ja: 'プロジェクト管理者', en: 'Project administrator' }, helpUrl: `${ROLE_HELP}/gls` },
  { email: 'manager@example.com', gloplaId: 'G0000001', productName: { ja: 'アセスメント', en: 'Assessment' }, role: { ja: '閲覧者', en: 'Viewer' }, helpUrl: `${ROLE_HELP}/gmap` },
  { email: 'manager@example.com', gloplaId: 'G0000002', productName: { ja: '見放題ライブラリ', en: 'Unlimited Library' }, role: { ja: '閲覧者', en: 'Viewer' }, helpUrl: `${ROLE_HELP}/hodai` },
  { email: 'member@example.com', gloplaId: 'G0000001', productName: { ja: '見放題ライブラリ', en: 'Unlimited Library' }, role: { ja: '受講管理者', en: 'Learning manager' }, helpUrl: `${ROLE_HELP}/hodai` },
  { email: 'member@example.com', gloplaId: 'G0000001', productName: { ja: 'グローバル見放題', en: 'Global Unlimited' }, role: { ja: '閲覧者', en: 'Viewer' }, helpUrl: `${ROLE_HELP}/gu` },
];

export interface DemoServiceGroup {
  id: number;
  identifier: string;
  name: LocalizedText;
  /** single: one of the group's services (a term); multi: several (subjects). */
  selection: ServiceSelection;
  maximumUsers?: number;
  classSize?: { minimum: number; maximum: number };
}

/**
 * SPEC §1: the nine service groups. The user limits and the gls class size are open in the SPEC (§5, §9 'not
 * shown'): these are the demo's values, data an operator changes without code.
 */
export const demoServiceGroups: DemoServiceGroup[] = [
  { id: 1, identifier: 'hodai', name: { ja: '見放題ライブラリ', en: 'Unlimited Library' }, selection: 'single', maximumUsers: 1000 },
  { id: 2, identifier: 'emba', name: { ja: 'オンラインMBA 2.0', en: 'Online MBA 2.0' }, selection: 'multi', maximumUsers: 300 },
  { id: 3, identifier: 'hodaiplus', name: { ja: '見放題プラス（旧）', en: 'Library Plus (legacy)' }, selection: 'single', maximumUsers: 1000 },
  { id: 4, identifier: 'gls', name: { ja: 'クラス型研修', en: 'Class-based Training' }, selection: 'single', classSize: { minimum: 10, maximum: 40 } },
  { id: 5, identifier: 'school', name: { ja: 'スクール型研修', en: 'School-type Training' }, selection: 'single' },
  { id: 6, identifier: 'gmap', name: { ja: 'アセスメント', en: 'Assessment' }, selection: 'single' },
  { id: 7, identifier: 'gu', name: { ja: 'グローバル見放題', en: 'Global Unlimited' }, selection: 'single', maximumUsers: 1000 },
  { id: 9, identifier: 'newhodaiplus', name: { ja: '見放題プラス', en: 'Library Plus' }, selection: 'single', maximumUsers: 1000 },
  { id: 10, identifier: 'newemba', name: { ja: '新オンラインMBA', en: 'New Online MBA' }, selection: 'single', maximumUsers: 500 },
];

export interface DemoService {
  id: number;
  serviceGroupId: number;
  identifier: string;
  name: LocalizedText;
  subtitle: LocalizedText;
  summary: LocalizedText;
  description: LocalizedText;
  /** Order in the group (terms by length, subjects as listed). */
  position: number;
  discontinued?: boolean;
  /** SPEC §9: the last start date, yyyy-MM-dd. */
  lastStartsOn?: string;
}

const TERM = {
  3: { ja: '3ヶ月', en: '3 months' },
  6: { ja: '6ヶ月', en: '6 months' },
  12: { ja: '12ヶ月', en: '12 months' },
};

/**
 * The groups' representative services: the one whose id equals its group's (SPEC 2.8's service-detail ids 1..10),
 * which Home shows as the group's card and Service Details describes.
 */
const representatives: DemoService[] = [
  {
    id: 1,
    serviceGroupId: 1,
    identifier: 'hodai',
    position: 3,
    name: { ja: '見放題ライブラリ', en: 'Unlimited Library' },
    subtitle: TERM[12],
    summary: { ja: 'ビジネスの基本を動画で学べます。\nスマートフォンでも視聴できます。', en: 'Learn business basics on video.\nWatch on any smartphone.' },
    description: { ja: '数千本の動画から必要な講座を選んで学べる見放題サービスです。', en: 'An unlimited library of thousands of short business courses.' },
  },
  {
    id: 2,
    serviceGroupId: 2,
    identifier: 'emba',
    position: 1,
    lastStartsOn: '2026-05-01',
    name: { ja: 'オンラインMBA 2.0', en: 'Online MBA 2.0' },
    subtitle: { ja: 'クリティカル・シンキング', en: 'Critical Thinking' },
    summary: { ja: 'オンラインで学ぶMBA科目。\n少人数のクラスで議論します。', en: 'MBA subjects online.\nDiscuss in small classes.' },
    description: { ja: 'MBA科目をオンラインのライブ授業で学ぶコースです。', en: 'MBA subjects taught in live online classes.' },
  },
  {
    id: 3,
    serviceGroupId: 3,
    identifier: 'hodaiplus',
    position: 1,
    lastStartsOn: '2026-05-01',
    name: { ja: '見放題プラス（旧）', en: 'Library Plus (legacy)' },
    subtitle: TERM[3],
    summary: { ja: '見放題ライブラリとオンラインMBAのセットです。', en: 'The library bundled with the online MBA.' },
    description: { ja: '見放題ライブラリとeMBA2を組み合わせた旧プラスプランです。', en: 'The old plus bundle of the library and eMBA2.' },
  },
  {
    id: 4,
    serviceGroupId: 4,
    identifier: 'gls',
    position: 1,
    name: { ja: 'クラス型研修', en: 'Class-based Training' },
    subtitle: { ja: 'プロジェクトとクラスで運用', en: 'Run through projects and classes' },
    summary: { ja: '講師とクラスで学ぶ研修です。\nプロジェクト単位で受講者を登録します。', en: 'Training in classes with an instructor.\nRegister learners per project.' },
    description: { ja: '研修プロジェクトごとにクラスを設け、受講者を登録して運用します。', en: 'Set up classes per training project and register learners in them.' },
  },
  {
    id: 5,
    serviceGroupId: 5,
    identifier: 'school',
    position: 1,
    name: { ja: 'スクール型研修', en: 'School-type Training' },
    subtitle: { ja: '公開講座に派遣', en: 'Send staff to open courses' },
    summary: { ja: '公開講座に社員を派遣できます。', en: 'Send employees to open courses.' },
    description: { ja: 'お申し込みは専用サイトから行います。', en: 'Applications are made on the dedicated site.' },
  },
  {
    id: 6,
    serviceGroupId: 6,
    identifier: 'gmap',
    position: 1,
    name: { ja: 'アセスメント', en: 'Assessment' },
    subtitle: { ja: 'ビジネススキルを測定', en: 'Measure business skills' },
    summary: { ja: 'ビジネススキルを客観的に測定します。', en: 'Measure business skills objectively.' },
    description: { ja: 'お申し込みは専用サイトから行います。', en: 'Applications are made on the dedicated site.' },
  },
  {
    id: 7,
    serviceGroupId: 7,
    identifier: 'gu',
    position: 3,
    name: { ja: 'グローバル見放題', en: 'Global Unlimited' },
    subtitle: TERM[12],
    summary: { ja: '英語の動画講座が見放題です。', en: 'Unlimited English-language courses.' },
    description: { ja: 'グローバル人材向けの英語版ライブラリです。', en: 'The English edition of the library for global teams.' },
  },
  {
    id: 9,
    serviceGroupId: 9,
    identifier: 'newhodaiplus',
    position: 1,
    name: { ja: '見放題プラス', en: 'Library Plus' },
    subtitle: { ja: '見放題とeMBAのセット', en: 'Library and eMBA bundle' },
    summary: { ja: '見放題ライブラリと新オンラインMBAのセットです。', en: 'The library bundled with the new online MBA.' },
    description: { ja: '新しいプラスプランです。', en: 'The new plus bundle.' },
  },
  {
    id: 10,
    serviceGroupId: 10,
    identifier: 'newemba',
    position: 1,
    name: { ja: '新オンラインMBA', en: 'New Online MBA' },
    subtitle: { ja: 'eMBA', en: 'eMBA' },
    summary: { ja: '新しいオンラインMBAコースです。', en: 'The new online MBA course.' },
    description: { ja: 'MBA科目をオンラインで学ぶ新しいコースです。', en: 'The new course of online MBA subjects.' },
  },
];

/** Another service of a group: its own id, identifier, order and subtitle (a term or a subject), the rest as the representative's. */
function variant(representativeId: number, id: number, suffix: string, position: number, subtitle: LocalizedText, extra: Partial<DemoService> = {}): DemoService {
  const representative = representatives.find((service) => service.id === representativeId)!;
  return { ...representative, id, identifier: `${representative.identifier}-${suffix}`, position, subtitle, ...extra };
}

/**
 * SPEC §1, §5, §9: every group's services. Terms of 3, 6 and 12 months for the single-choice groups hodai, hodaiplus
 * and gu (hodaiplus: 23 old plus 6 months, last start 2026-02-01; 25 old plus 12 months, last start 2025-08-01 and
 * discontinued); subjects with subtitles for the multi-select emba (last start 2026-05-01); one service for the others.
 */
export const demoServices: DemoService[] = [
  ...representatives,
  variant(1, 11, '3m', 1, TERM[3]),
  variant(1, 12, '6m', 2, TERM[6]),
  variant(2, 13, 'marketing', 2, { ja: 'マーケティング', en: 'Marketing' }),
  variant(2, 14, 'accounting', 3, { ja: 'アカウンティング', en: 'Accounting' }),
  variant(2, 15, 'leadership', 4, { ja: 'リーダーシップ', en: 'Leadership' }),
  variant(3, 23, '6m', 2, TERM[6], { lastStartsOn: '2026-02-01' }),
  variant(3, 25, '12m', 3, TERM[12], { lastStartsOn: '2025-08-01', discontinued: true }),
  variant(7, 17, '3m', 1, TERM[3]),
  variant(7, 18, '6m', 2, TERM[6]),
];

/** Which services each organisation may use (Home lists only their groups): G0000001 every one, G0000002 a few. */
export const demoOrganizationServices: Record<string, number[]> = {
  G0000001: demoServices.map((service) => service.id),
  G0000002: [1, 11, 12, 4, 6, 10],
};

interface DemoLink {
  category: LinkCategory;
  url: string;
  label: LocalizedText;
}

/**
 * The links of a group's representative service: one of each category (SPEC §3 link categories), and the cases of
 * SPEC §7's link rewriting. The exceptions use the settings' defaults (src/server/config.ts): the learning-check
 * admin page (LEARNING_CHECK_ADMIN_URL) on hodai, the SAML identity provider (PROVIDER_SAML_IDP_URL) on gls, the
 * provider's sign-in host (PROVIDER_SIGNIN_HOST) on newemba.
 */
export function demoServiceLinks(service: { id: number; identifier: string }): DemoLink[] {
  const host = `https://${service.identifier}.example.com`;
  // Groups applied for inside the portal get the wizard route; the others their own sites (SPEC §6).
  const inPortal = [1, 2, 3, 7, 9, 10].includes(service.id);
  const admin = (label: LocalizedText, url = `https://admin.${service.identifier}.example.com/dashboard`): DemoLink => ({ category: 'admin', url, label });
  const admins: Record<string, DemoLink[]> = {
    hodai: [admin({ ja: '見放題 管理画面', en: 'Unlimited Library admin' }), admin({ ja: '学習チェック管理画面', en: 'Learning check admin' }, 'https://admin.hodai.example.com/learning-check')],
    hodaiplus: [admin({ ja: '見放題 管理画面', en: 'Unlimited Library admin' }), admin({ ja: 'eMBA2 管理画面', en: 'eMBA2 admin' }, 'https://admin.emba.example.com/dashboard')],
    newhodaiplus: [admin({ ja: '見放題 管理画面', en: 'Unlimited Library admin' }), admin({ ja: 'eMBA 管理画面', en: 'eMBA admin' }, 'https://admin.newemba.example.com/dashboard')],
    newemba: [admin({ ja: 'eMBA 管理画面', en: 'eMBA admin' }, 'https://signin.example.com/newemba/admin')],
  };
  const otherSso: DemoLink[] =
    service.identifier === 'gls'
      ? [
          { category: 'other_sso', url: 'https://sso.gls.example.com/login', label: { ja: 'クラス型研修にログイン', en: 'Sign in to Class-based Training' } },
          { category: 'other_sso', url: 'https://saml.example.com/sso?sp=gls', label: { ja: 'SAMLでログイン', en: 'Sign in with SAML' } },
        ]
      : [];
  return [
    { category: 'description', url: `${host}/`, label: { ja: '詳しくはこちら', en: 'For more info' } },
    {
      category: 'purchase',
      url: inPortal ? `/subscription/group/${service.id}/new` : `${host}/apply`,
      label: { ja: '申し込む', en: 'Subscribe' },
    },
    { category: 'history', url: `/services/${service.id}`, label: { ja: '申込履歴', en: 'Application history' } },
    ...(admins[service.identifier] ?? [admin({ ja: '管理画面', en: 'Admin dashboard' })]),
    { category: 'terms', url: `${host}/terms`, label: { ja: '利用規約', en: 'Terms of use' } },
    ...otherSso,
  ];
}

/** Links of a service group (served with serviceGroup.urls). */
export function demoServiceGroupLinks(group: { id: number; identifier: string }): DemoLink[] {
  return [
    { category: 'history', url: `/services/${group.id}`, label: { ja: '申込履歴', en: 'Application history' } },
    { category: 'admin', url: `https://admin.${group.identifier}.example.com/`, label: { ja: '管理画面', en: 'Admin dashboard' } },
    // the application wizard's confirm step links the group's terms of service (SPEC 2.11)
    { category: 'terms', url: `https://${group.identifier}.example.com/terms`, label: { ja: '利用規約', en: 'Terms of use' } },
  ];
}

/**
 * SPEC §3 Project and Project class: each organisation's training projects, with bundled and gls classes. A gls class
 * has a period (migration 0086), in days from the seeding day (issue 17's demo: GLS-A holds A000000103, before its
 * change deadline; GLS-B is open for registration, no application yet; GLS-C started two days ago and holds A000000106,
 * confirmed before its enlargement deadline; GLS-D started a month ago and holds A000000107, past both deadlines).
 */
export const demoProjects: Array<{
  gloplaId: string;
  projectCode: string;
  name: string;
  classes: Array<{ code: string; name: string; kind: ProjectClassKind; period?: { startsInDays: number; days: number } }>;
}> = [
  {
    gloplaId: 'G0000001',
    projectCode: 'PJ2026-001',
    name: '2026年度 新任管理職研修',
    classes: [
      { code: 'GLS-A', name: 'クラスA（4月開講）', kind: 'gls', period: { startsInDays: 21, days: 60 } },
      { code: 'GLS-B', name: 'クラスB（10月開講）', kind: 'gls', period: { startsInDays: 60, days: 60 } },
      { code: 'GLS-C', name: 'クラスC（開講済み・追加受付中）', kind: 'gls', period: { startsInDays: -2, days: 60 } },
      { code: 'GLS-D', name: 'クラスD（開講済み）', kind: 'gls', period: { startsInDays: -30, days: 60 } },
    ],
  },
  {
    gloplaId: 'G0000001',
    projectCode: 'PJ2026-002',
    name: '全社 見放題セット研修',
    classes: [
      { code: 'BND-1', name: '見放題セット 第1期', kind: 'bundled' },
      { code: 'BND-2', name: '見放題セット 第2期', kind: 'bundled' },
    ],
  },
  { gloplaId: 'G0000002', projectCode: 'PJ2026-101', name: '営業力強化研修', classes: [{ code: 'GLS-S', name: '営業クラス', kind: 'gls', period: { startsInDays: 14, days: 30 } }] },
];

/**
 * The demo partner product of the single-sign-on gateway (issue 9 §4): /auth/gateway?gpc=demo-partner forwards to the
 * portal's own /dev/partner page (demo mode only), which verifies the tokens like a real partner. Its secret is
 * published here: demo data only, never a real partner's.
 */
export const demoPartnerProducts = [
  { code: 'demo-partner', productId: 1, name: 'Demo partner', authUrl: '/dev/partner', secret: 'demo-partner-shared-secret-0123456789-not-for-production' },
];

export const demoFeatureFlags = [{ name: 'product_admin_roles', enabled: true }];

export const demoNotices = [
  {
    target: 'enterprise_portal',
    contentJa: 'これはデモ環境です。入力したデータは予告なく削除されることがあります。',
    contentEn: 'This is a demo environment. Data you enter may be deleted without notice.',
  },
];

export const demoAnnouncementArticles = [
  {
    title: { ja: 'ポータルをリニューアルしました', en: 'The portal has been renewed' },
    body: { ja: '画面デザインを新しくしました。', en: 'The screens have a new design.' },
    url: 'https://news.example.com/articles/1',
    publishedAt: '2025-08-01T00:00:00+09:00',
  },
  {
    title: { ja: '年末年始のサポート窓口について', en: 'Support over the year-end holidays' },
    body: { ja: '12月29日から1月3日まではお問い合わせへの回答が遅れます。', en: 'Answers to inquiries are delayed from 29 December to 3 January.' },
    url: 'https://news.example.com/articles/2',
    publishedAt: '2025-12-01T00:00:00+09:00',
  },
];

/** SPEC §3 Contact: the delivery addresses of the demo organisation (two, so the wizards' selectors have a choice). */
export const demoContacts = [
  {
    gloplaId: 'G0000001',
    corporationName: '株式会社デモ',
    departmentName: '人事部 人材開発課',
    postalCode: '100-0005',
    address: '東京都千代田区丸の内1-1-1 デモビル10階',
    lastName: '佐藤',
    firstName: '花子',
    kanaLastName: 'さとう',
    kanaFirstName: 'はなこ',
    phoneNumber: '03-1234-5678',
    email: 'hr-training@example.com',
  },
  {
    gloplaId: 'G0000001',
    corporationName: '株式会社デモ',
    departmentName: '大阪支社 総務課',
    postalCode: '530-0001',
    address: '大阪府大阪市北区梅田2-2-2 サンプルタワー5階',
    lastName: '田中',
    firstName: '次郎',
    kanaLastName: 'たなか',
    kanaFirstName: 'じろう',
    phoneNumber: '06-2345-6789',
    email: 'osaka-admin@example.com',
  },
];

/** SPEC §3 Billing contact: the demo organisation's one billing contact (no addressee: the company name is printed). */
export const demoBillingContacts = [
  {
    gloplaId: 'G0000001',
    corporationName: '株式会社デモ',
    departmentName: '経理部',
    lastName: '鈴木',
    firstName: '一郎',
    kanaLastName: 'すずき',
    kanaFirstName: 'いちろう',
    phoneNumber: '03-1234-5600',
    email: 'accounting@example.com',
    ccEmail: 'hr-training@example.com',
    addressee: '',
  },
];

/** The learners of the demo organisations (SPEC 2.15 Users): G0000001 a dozen, some signing in through an identity provider (nameId). */
export const demoOrganizationUsers: Array<{
  gloplaId: string;
  lastName: string;
  firstName: string;
  kanaLastName: string;
  kanaFirstName: string;
  email: string;
  nameId?: string;
  nameIdType: 'email' | 'nameId' | null;
}> = [
  { gloplaId: 'G0000001', lastName: '青木', firstName: '健太', kanaLastName: 'あおき', kanaFirstName: 'けんた', email: 'aoki.kenta@example.com', nameId: 'EMP0001', nameIdType: 'nameId' },
  { gloplaId: 'G0000001', lastName: '伊藤', firstName: '直美', kanaLastName: 'いとう', kanaFirstName: 'なおみ', email: 'ito.naomi@example.com', nameId: 'EMP0002', nameIdType: 'nameId' },
  { gloplaId: 'G0000001', lastName: '上田', firstName: '翔', kanaLastName: 'うえだ', kanaFirstName: 'しょう', email: 'ueda.sho@example.com', nameIdType: 'nameId', nameId: 'EMP0003' },
  { gloplaId: 'G0000001', lastName: '遠藤', firstName: '真由美', kanaLastName: 'えんどう', kanaFirstName: 'まゆみ', email: 'endo.mayumi@example.com', nameIdType: 'email' },
  { gloplaId: 'G0000001', lastName: '小川', firstName: '大輔', kanaLastName: 'おがわ', kanaFirstName: 'だいすけ', email: 'ogawa.daisuke@example.com', nameIdType: 'email' },
  { gloplaId: 'G0000001', lastName: '加藤', firstName: '彩', kanaLastName: 'かとう', kanaFirstName: 'あや', email: 'kato.aya@example.com', nameId: 'EMP0006', nameIdType: 'nameId' },
  { gloplaId: 'G0000001', lastName: '木村', firstName: '拓也', kanaLastName: 'きむら', kanaFirstName: 'たくや', email: 'kimura.takuya@example.com', nameIdType: null },
  { gloplaId: 'G0000001', lastName: '小林', firstName: '美穂', kanaLastName: 'こばやし', kanaFirstName: 'みほ', email: 'kobayashi.miho@example.com', nameIdType: 'email' },
  { gloplaId: 'G0000001', lastName: '斎藤', firstName: '亮', kanaLastName: 'さいとう', kanaFirstName: 'りょう', email: 'saito.ryo@example.com', nameId: 'EMP0009', nameIdType: 'nameId' },
  { gloplaId: 'G0000001', lastName: '清水', firstName: '由紀', kanaLastName: 'しみず', kanaFirstName: 'ゆき', email: 'shimizu.yuki@example.com', nameIdType: null },
  { gloplaId: 'G0000001', lastName: '田中', firstName: '誠', kanaLastName: 'たなか', kanaFirstName: 'まこと', email: 'tanaka.makoto@example.com', nameId: 'EMP0011', nameIdType: 'nameId' },
  { gloplaId: 'G0000001', lastName: '中村', firstName: '愛', kanaLastName: 'なかむら', kanaFirstName: 'あい', email: 'nakamura.ai@example.com', nameIdType: 'email' },
  { gloplaId: 'G0000002', lastName: '野口', firstName: '博', kanaLastName: 'のぐち', kanaFirstName: 'ひろし', email: 'noguchi.hiroshi@example.com', nameId: 'X100', nameIdType: 'nameId' },
  { gloplaId: 'G0000002', lastName: '松本', firstName: '恵', kanaLastName: 'まつもと', kanaFirstName: 'めぐみ', email: 'matsumoto.megumi@example.com', nameIdType: 'email' },
];

/**
 * The demo organisations' applications (SPEC §3 Subscription; 2.9, 2.10): dates relative to the seeding day (days from
 * it), learners taken from the organisation's demo learners (the first `learners` of demoOrganizationUsers), contacts
 * by their index in demoContacts / demoBillingContacts, a class by its code. requestCodes come from the sequence
 * (A000000101, A000000102, …, in this order).
 */
export const demoSubscriptions: Array<{
  gloplaId: string;
  serviceIds: number[];
  startsInDays: number;
  appliedDaysAgo: number;
  admins: string[];
  learners: number;
  contact?: number;
  billingContact?: number;
  billingNote?: string;
  projectClassCode?: string;
}> = [
  // emba, two subjects, starts in about a month: updatable
  { gloplaId: 'G0000001', serviceIds: [2, 13], startsInDays: 30, appliedDaysAgo: 3, admins: ['manager@example.com', 'manager2@example.com'], learners: 3, contact: 0, billingContact: 0, billingNote: '発注番号 PO-2026-0042' },
  // newemba, started a month ago: no longer updatable
  { gloplaId: 'G0000001', serviceIds: [10], startsInDays: -30, appliedDaysAgo: 45, admins: ['manager@example.com'], learners: 2, contact: 1, billingContact: 0 },
  // gls with its class GLS-A: updatable, twelve learners (no contacts: a class has none)
  { gloplaId: 'G0000001', serviceIds: [4], startsInDays: 21, appliedDaysAgo: 7, admins: ['manager@example.com', 'support@example.com'], learners: 12, projectClassCode: 'GLS-A' },
  // newhodaiplus, in six weeks
  { gloplaId: 'G0000001', serviceIds: [9], startsInDays: 42, appliedDaysAgo: 1, admins: ['manager2@example.com'], learners: 5, contact: 0, billingContact: 0 },
  // G0000002's own (for the isolation checks): gls with its class GLS-S
  { gloplaId: 'G0000002', serviceIds: [4], startsInDays: 14, appliedDaysAgo: 2, admins: ['manager@example.com'], learners: 2, projectClassCode: 'GLS-S' },
  // gls class GLS-C, started two days ago: confirmed (past its change deadline), learners may still be added (before
  // startsOn + SUBSCRIPTION_ENLARGEMENT_DAYS), none removed
  { gloplaId: 'G0000001', serviceIds: [4], startsInDays: -2, appliedDaysAgo: 30, admins: ['manager@example.com'], learners: 10, projectClassCode: 'GLS-C' },
  // gls class GLS-D, started a month ago: past both deadlines
  { gloplaId: 'G0000001', serviceIds: [4], startsInDays: -30, appliedDaysAgo: 60, admins: ['manager@example.com'], learners: 10, projectClassCode: 'GLS-D' },
];

/**
 * Single sign-on's demo (issue 45 §8): G0000001's OpenID Connect connection 'Demo IdP' to the demo identity provider
 * the portal serves itself at /dev/idp in demo mode (api/devIdp.ts), and the verified domain routed to it. Its client
 * secret is published here on purpose: the demo IdP exists in demo mode only.
 */
export const demoSso = {
  connectionId: '00000000-0000-4000-8000-000000000045',
  domainId: '00000000-0000-4000-8000-000000000046',
  name: 'Demo IdP',
  domain: 'sso.example.com',
  clientId: 'corporate-admin-portal-demo',
  clientSecret: 'demo-idp-client-secret',
  gloplaId: 'G0000001',
  /** The demo IdP's accounts (its password is DEMO_PASSWORD); each is an activated admin of G0000001 without a password. */
  users: [
    { email: 'sso-admin@sso.example.com', familyName: '佐藤', givenName: '花子', amr: ['pwd', 'mfa'], role: 'manager' as const },
    { email: 'sso-member@sso.example.com', familyName: '鈴木', givenName: '一郎', amr: ['pwd'], role: 'member' as const },
  ],
} as const;
