/**
 * The demo data of DESIGN §4: what a fresh installation shows so the portal can be tried at once.
 * Plain data; seed/index.ts writes it. URLs point at example.com hosts (RFC 2606).
 */
import type { LinkCategory, LocalizedText } from '../types.js';

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

interface DemoService {
  id: number;
  identifier: string;
  name: LocalizedText;
  subtitle: LocalizedText;
  summary: LocalizedText;
  description: LocalizedText;
}

/** SPEC §1: the service family. Each service group has the same id and identifier as its service. */
export const demoServices: DemoService[] = [
  {
    id: 1,
    identifier: 'hodai',
    name: { ja: '見放題ライブラリ', en: 'Unlimited Library' },
    subtitle: { ja: '動画で学び放題', en: 'All-you-can-learn video library' },
    summary: { ja: 'ビジネスの基本を動画で学べます。\nスマートフォンでも視聴できます。', en: 'Learn business basics on video.\nWatch on any smartphone.' },
    description: { ja: '数千本の動画から必要な講座を選んで学べる見放題サービスです。', en: 'An unlimited library of thousands of short business courses.' },
  },
  {
    id: 2,
    identifier: 'emba',
    name: { ja: 'オンラインMBA 2.0', en: 'Online MBA 2.0' },
    subtitle: { ja: 'eMBA2', en: 'eMBA2' },
    summary: { ja: 'オンラインで学ぶMBA科目。\n少人数のクラスで議論します。', en: 'MBA subjects online.\nDiscuss in small classes.' },
    description: { ja: 'MBA科目をオンラインのライブ授業で学ぶコースです（2026年7月末で法人向け提供終了）。', en: 'MBA subjects taught in live online classes (corporate service ends in July 2026).' },
  },
  {
    id: 3,
    identifier: 'hodaiplus',
    name: { ja: '見放題プラス（旧）', en: 'Library Plus (legacy)' },
    subtitle: { ja: '見放題とeMBA2のセット', en: 'Library and eMBA2 bundle' },
    summary: { ja: '見放題ライブラリとオンラインMBAのセットです。', en: 'The library bundled with the online MBA.' },
    description: { ja: '旧プラスプランです（2026年7月末で法人向け提供終了）。', en: 'The old plus bundle (corporate service ends in July 2026).' },
  },
  {
    id: 4,
    identifier: 'gls',
    name: { ja: 'クラス型研修', en: 'Class-based Training' },
    subtitle: { ja: 'プロジェクトとクラスで運用', en: 'Run through projects and classes' },
    summary: { ja: '講師とクラスで学ぶ研修です。\nプロジェクト単位で受講者を登録します。', en: 'Training in classes with an instructor.\nRegister learners per project.' },
    description: { ja: '研修プロジェクトごとにクラスを設け、受講者を登録して運用します。', en: 'Set up classes per training project and register learners in them.' },
  },
  {
    id: 5,
    identifier: 'school',
    name: { ja: 'スクール型研修', en: 'School-type Training' },
    subtitle: { ja: '公開講座に派遣', en: 'Send staff to open courses' },
    summary: { ja: '公開講座に社員を派遣できます。', en: 'Send employees to open courses.' },
    description: { ja: 'お申し込みは専用サイトから行います。', en: 'Applications are made on the dedicated site.' },
  },
  {
    id: 6,
    identifier: 'gmap',
    name: { ja: 'アセスメント', en: 'Assessment' },
    subtitle: { ja: 'ビジネススキルを測定', en: 'Measure business skills' },
    summary: { ja: 'ビジネススキルを客観的に測定します。', en: 'Measure business skills objectively.' },
    description: { ja: 'お申し込みは専用サイトから行います。', en: 'Applications are made on the dedicated site.' },
  },
  {
    id: 7,
    identifier: 'gu',
    name: { ja: 'グローバル見放題', en: 'Global Unlimited' },
    subtitle: { ja: '英語で学び放題', en: 'All-you-can-learn, in English' },
    summary: { ja: '英語の動画講座が見放題です。', en: 'Unlimited English-language courses.' },
    description: { ja: 'グローバル人材向けの英語版ライブラリです。', en: 'The English edition of the library for global teams.' },
  },
  {
    id: 9,
    identifier: 'newhodaiplus',
    name: { ja: '見放題プラス', en: 'Library Plus' },
    subtitle: { ja: '見放題とeMBAのセット', en: 'Library and eMBA bundle' },
    summary: { ja: '見放題ライブラリと新オンラインMBAのセットです。', en: 'The library bundled with the new online MBA.' },
    description: { ja: '新しいプラスプランです。', en: 'The new plus bundle.' },
  },
  {
    id: 10,
    identifier: 'newemba',
    name: { ja: '新オンラインMBA', en: 'New Online MBA' },
    subtitle: { ja: 'eMBA', en: 'eMBA' },
    summary: { ja: '新しいオンラインMBAコースです。', en: 'The new online MBA course.' },
    description: { ja: 'MBA科目をオンラインで学ぶ新しいコースです。', en: 'The new course of online MBA subjects.' },
  },
];

interface DemoLink {
  category: LinkCategory;
  url: string;
  label: LocalizedText;
}

/** Every service gets a link of each category (SPEC §3 link categories). */
export function demoServiceLinks(service: { id: number; identifier: string }): DemoLink[] {
  const host = `https://${service.identifier}.example.com`;
  // Groups applied for inside the portal get the wizard route; the others their own sites (SPEC §6).
  const inPortal = [1, 2, 3, 7, 9, 10].includes(service.id);
  return [
    { category: 'description', url: `${host}/`, label: { ja: '詳しくはこちら', en: 'For more info' } },
    {
      category: 'purchase',
      url: inPortal ? `/subscription/group/${service.id}/new` : `${host}/apply`,
      label: { ja: '申し込む', en: 'Subscribe' },
    },
    { category: 'history', url: `/services/${service.id}`, label: { ja: '申込履歴', en: 'Application history' } },
    { category: 'admin', url: `https://admin.${service.identifier}.example.com/dashboard`, label: { ja: '管理画面', en: 'Admin dashboard' } },
    { category: 'terms', url: `${host}/terms`, label: { ja: '利用規約', en: 'Terms of use' } },
    { category: 'other_sso', url: `https://sso.${service.identifier}.example.com/login`, label: { ja: 'ログイン', en: 'Sign in' } },
  ];
}

/** Links of a service group (served with serviceGroup.urls). */
export function demoServiceGroupLinks(group: { id: number; identifier: string }): DemoLink[] {
  return [
    { category: 'history', url: `/services/${group.id}`, label: { ja: '申込履歴', en: 'Application history' } },
    { category: 'admin', url: `https://admin.${group.identifier}.example.com/`, label: { ja: '管理画面', en: 'Admin dashboard' } },
  ];
}

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
