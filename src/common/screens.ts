/** Shape of a screen definition in screens/*.json (DESIGN principle 2). */
export const ACCESS_CLASSES = ['public', 'member', 'admin', 'unguarded'] as const;
export type AccessClass = (typeof ACCESS_CLASSES)[number];

export const PAGE_WIDTHS = ['normal', 'wide', 'userList'] as const;
export type PageWidth = (typeof PAGE_WIDTHS)[number];

export const FORM_STEPS = ['input', 'confirm', 'done'] as const;
export type FormStep = (typeof FORM_STEPS)[number];

export interface BreadcrumbItem {
  /** Locale key of the label, or a value of the screen's loaded data ('$data.detail.service.name'). */
  label: string;
  /** Link target; the last item is the current page and has none. */
  to?: string;
  /** A link to a screen whose values come from the screen's route and loaded data; no link while a value is missing. */
  screen?: ScreenLink;
}

/** A form shown by a screen: its schema, presentation and what submitting does. */
export interface FormDefinition {
  /** File name (without .json) in schemas/. */
  schema: string;
  /** RJSF uiSchema; titles and help are locale keys, widgets are ids of the widget registry. */
  uiSchema?: Record<string, unknown>;
  /** input → confirm → done, each step pushed to browser history. */
  steps?: FormStep[];
  /** Submit stays disabled until the data differs from the initial data. */
  disabledUntilChanged?: boolean;
  /** The API call made on submit (the body is the form data) and the submit button's label. */
  submit: CallDefinition & { method: 'POST' | 'PUT' | 'PATCH'; label: string };
  /** Label of the button that leads from input to confirm. */
  confirmLabel?: string;
  /**
   * What fills the form at first: a value of the screen context ('$me', '$data.check.admin') or values by field
   * ({"email": "$query.email"}); only the schema's own properties are taken. With disabledUntilChanged, submit waits
   * until the data differs from these.
   */
  initialData?: ValueRef | Record<string, ValueRef | InitialAlternatives>;
  /** What happens when the submit call ends (the first matching row): field messages, flash, navigation, events. */
  outcomes?: Outcome[];
  /** A button beside submit running one of the screen's actions (e.g. closing an inline form). */
  cancel?: { label: string; action: string };
  /**
   * The call the input step's Next makes before the confirm step (SPEC 2.11's dry run), with the form data (after
   * `transform`) as body: its success applies its `outcomes` (e.g. `set` to keep the answer in `$local`) and goes to
   * confirm; a 422 stays on the input step with the server's field errors. Without it Next goes to confirm at once.
   */
  check?: CallDefinition & { method: 'POST' | 'PUT' | 'PATCH'; outcomes?: Outcome[] };
  /**
   * A named payload rule (engine/forms/payloads.ts) that turns the form data into the body of `check` and `submit`
   * (SPEC §7 'Subscription payload rules'), with values of the context it needs (e.g. the snapshot of the edited data).
   */
  transform?: { name: string; values?: Record<string, ValueRef> };
  /** When the browser's own validation refuses the data: a flash, and the URL's hash set to the first field in error. */
  invalid?: { flash?: FlashSpec; hash?: boolean };
  /** The confirm step's content instead of the list of entered values (read `$form` for the data, `$local` for answers). */
  confirmBlocks?: Block[];
  /** The done step's content instead of `done`'s title and message. */
  doneBlocks?: Block[];
  /** The confirm step's back button to input (default true). */
  back?: boolean;
  /**
   * Locale key prefix of the server's field error messages for this form: `<prefix>.<field>.<code>` without row indexes
   * (SPEC §8 'Application errors': 'subscriptions.errors' → subscriptions.errors.startsOn.outOfRange), where it exists.
   */
  serverMessages?: string;
}

/**
 * A field's first value: the first of these that has a value (not undefined, null or ''); literals count as they are,
 * and `{when, value}` counts only where its condition holds (e.g. a group's only service, chosen for the admin).
 */
export type InitialAlternatives = Array<ValueRef | number | boolean | null | { when: Condition; value: ValueRef }>;

/**
 * A condition over the screen context (params, query, state, data, role, flags, item, body…): a JSON Schema the
 * context must satisfy (DESIGN §6, JSON Forms' rules). No expression language; precompiled at build time. Files write
 * it short or by name (docs/configuration.md); the loader gives the engine the full schema (src/configuration/conditions.ts).
 */
export type Condition = Record<string, unknown>;

/**
 * A value taken from the screen context by a dotted path after `$`: '$state.email', '$item.admin.id', '$body.outcome',
 * '$data.affiliations.affiliations', '$me.firstName', '$organization.gloplaId', '$value'. Anything else is a literal.
 */
export type ValueRef = string;

/** A screen named by id, with the values of its path's placeholders and its navigation state. */
export interface ScreenLink {
  screen: string;
  params?: Record<string, ValueRef>;
  /** Query parameters of the link. */
  query?: Record<string, ValueRef>;
  state?: Record<string, ValueRef>;
  replace?: boolean;
}

/** A flash message: a locale key, or one with its kind and interpolated values. */
/**
 * How a value is shown inside a text: `date` (SPEC §9: yyyy-MM-dd, yyyy年M月d日), `weekdayDate` (the same with the
 * short weekday: 'Tue, 2026-11-24', '2026年11月24日(火)'), `dateTime` (a moment: '2026-11-24 18:05:09',
 * '2026年11月24日 18:05:09', in the browser's time zone), `list` (an array's elements joined by commas), `month` (a
 * month, yyyy-MM: 'Jun 2026', '2026年6月').
 */
export const VALUE_FORMATS = ['date', 'weekdayDate', 'dateTime', 'list', 'month'] as const;
export type ValueFormat = (typeof VALUE_FORMATS)[number];

export type FlashSpec = string | { message: string; kind?: 'success' | 'info' | 'warning' | 'error'; values?: Record<string, ValueRef> };

/**
 * One row of an outcome table: what happens when a call ends. The first row that matches wins: `on` is 'success'
 * (any 2xx), 'failure' (any error, network ones too) or an HTTP status (with the answer's error `code` when given),
 * `when` a condition over {body, status}. Without a matching row a failure gets the general handling of SPEC §8.
 */
export interface Outcome {
  on: 'success' | 'failure' | number;
  code?: string;
  when?: Condition;
  /** Show the locale key `message` on this form field instead of the general handling. */
  field?: string;
  message?: string;
  flash?: FlashSpec;
  navigate?: ScreenLink | 'done';
  /** Load the screen's data again. */
  reload?: boolean;
  /** The general handling of SPEC §8 runs too: the row does not claim the error. */
  general?: boolean;
  /** Form fields emptied (e.g. the captcha's, whose solution works once). */
  reset?: string[];
  /** An action type dispatched with the answer's body as payload, for a feature to act on. */
  event?: string;
  /**
   * Values set in the screen's own state (`$local.<name>`, kept while the screen is shown), read from the context and
   * the answer: `{"preview": "$body.users", "rowErrors": null}` (SPEC 2.15's preview mode, the selected row).
   */
  set?: Record<string, ValueRef | null>;
  /** Sign out here: the session and local storage cleared, then sign-in (SPEC §8 'User calls returning 401'). */
  signOut?: boolean;
  /** Values of `set` passed through a named rule of the engine (engine/screen/normalizers.ts): `{"rowErrors": "rowErrors"}` (SPEC §5). */
  normalize?: Record<string, 'rowErrors' | 'changedRows'>;
  /**
   * Fields of the screen's form set from the context and the answer, e.g. after a modal form saved a record:
   * `{"contactId": "$body.contact.id"}` (SPEC 2.12: the form's contactId is set to the returned id).
   */
  setFields?: Record<string, ValueRef>;
  /**
   * The answer (text) saved as a file: its name a locale key with values (plus `date`, today as yyyyMMdd), optionally
   * after a UTF-8 byte-order mark; `content` saves a value of the screen instead (a list: a line per element).
   */
  save?: { fileName: string; values?: Record<string, ValueRef>; type?: string; bom?: boolean; content?: ValueRef };
  /** A value of the screen copied to the clipboard (a list: a line per element), e.g. recovery codes. */
  copy?: ValueRef;
  /** A URL of the answer opened in a new window (no opener), e.g. the page that tests a single-sign-on connection. */
  open?: ValueRef;
  /**
   * A form's write refused as made on an old version (412, issue 28): the form stays open with what was typed, says who
   * changed the record and when, and offers 'Show the latest' (`latest` read: the answer's `record`, side by side with
   * the form's values) and 'Save mine anyway' (the write again, on the latest version).
   */
  conflict?: ConflictDefinition;
  /**
   * Values kept in the browser's localStorage under their names for a later page (SPEC §7: arriving on a class route
   * keeps projectId and projectCode, which the next single sign-on to product 4 reads once); an empty value is not kept.
   */
  remember?: Record<string, ValueRef>;
}

/** Where a form's conflict (Outcome.conflict) reads the record as it is now: the call, and the answer's key holding it (with its `etag`). */
export interface ConflictDefinition {
  latest: CallDefinition;
  record: string;
  /**
   * The record's values as the form's fields, when the record is not shaped as the form ('$body.…' reads the record:
   * `{"serviceIds": "$body.services.*.id"}`); without it the record's own fields are compared.
   */
  fields?: Record<string, ValueRef>;
  /** Fields holding ids, shown by the names of the screen's loaded options (services, admins, contacts). */
  labels?: Record<string, ConflictLabels>;
}

/** Where a field's ids find their names: the options (e.g. `$data.services.services`), each one's id, its name's parts. */
export interface ConflictLabels {
  options: ValueRef;
  /** The option's id (a dotted path: `admin.id`). */
  key: string;
  /** The dotted paths of the name's parts, joined by a space (`["admin.lastName", "admin.firstName"]`). */
  label: string[];
}

/** Calls that may take longer than the default 300000 ms (SPEC §7, §9); the browser's constants hold the numbers. */
export const CALL_TIMEOUTS = ['subscriptionWrite'] as const;
export type CallTimeout = (typeof CALL_TIMEOUTS)[number];

/** An API call of a screen: data to load, or an action's call. Placeholders (:orgId, :name) as in `params`. */
export interface CallDefinition {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  version?: 'v1' | 'v2';
  /** Placeholder values; orgId and adminId default to the session's organisation and admin. */
  params?: Record<string, ValueRef>;
  query?: Record<string, ValueRef>;
  /** The body's fields: values of the context, or literal booleans and numbers (`{"twoStepRequired": true}`). */
  body?: Record<string, ValueRef | boolean | number>;
  /** A mailed token sent as `<header>: Bearer <token>` (SPEC §7 activation and reset); none when the value is empty. */
  bearer?: { header: string; token: ValueRef };
  /** Send the body as multipart/form-data (a file chosen in an upload block is `$file`). */
  multipart?: boolean;
  /**
   * The version of the record the change is made on, sent as `If-Match` (issue 28: `"$item.etag"`): the server changes
   * it only while it is still that version, else 412 (an outcome's `conflict`). None when the value is empty.
   */
  ifMatch?: ValueRef;
  /**
   * A passkey's registration (issue 29): first POST `register` for the WebAuthn creation options (JSON text in
   * `options`), then the browser asks the device, then this call is sent with the device's answer as JSON text in
   * `credential` beside the body's fields. A ceremony the person cancels ends the call without a write. `body`: the
   * options call's fields (`{"enrolment": "$query.enrolment"}`, the mailed set-up link's token).
   */
  passkey?: { register: string; body?: Record<string, ValueRef> };
  /**
   * Send an `Idempotency-Key` header, a new key each time the call is made (one per submit; the http layer's network
   * retries of that call send the same key): the server answers a repeat with the first answer, never writing twice.
   */
  idempotencyKey?: boolean;
  /** A longer timeout by name: `subscriptionWrite`, an application's create and update, dry runs too (600000 ms). */
  timeout?: CallTimeout;
  /**
   * Other endpoints for the same call: the first whose condition holds replaces method, path and params (a confirmed
   * class application is changed through PATCH …/confirmed_corporate_subscriptions, SPEC §7). Query, body and the
   * outcomes stay the definition's.
   */
  instead?: CallAlternative[];
}

export interface CallAlternative {
  when: Condition;
  method?: CallDefinition['method'];
  path: string;
  params?: Record<string, ValueRef>;
}

/** Data a screen loads on entering, under `data.<key>`; failures follow `outcomes`, else the general handling. */
export interface DataDefinition extends CallDefinition {
  outcomes?: Outcome[];
  /**
   * Loaded only after these entries have answered (their answers are in `$data` for this entry's path, query and
   * `when`), e.g. a list filtered by the group of the service loaded first. Not loaded when one of them failed.
   */
  after?: string[];
  /** Loaded only when this condition holds (over the context with the data loaded before); otherwise left out. */
  when?: Condition;
  /** The answer is a page of a longer list: the table showing it loads the next pages as it scrolls (TableBlock.loadsMore). */
  pages?: DataPages;
}

/**
 * How a paged answer continues (issue 27: a list of 100,000 learners is not one answer): the answer's list `rows`
 * grows by the next page, asked with the query parameter `cursor` set to the answer's `next`, while `next` is set.
 */
export interface DataPages {
  rows: string;
  cursor: string;
  next: string;
}

/** A confirmation dialog (SPEC 2.13): title and body locale keys with values; Escape and backdrop close it. */
export interface DialogDefinition {
  title: string;
  body: string;
  values?: Record<string, ValueRef>;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  /** Default true. */
  closeOnEscape?: boolean;
  /** Default true. */
  closeOnBackdrop?: boolean;
  /** Another body where its condition holds (the first that does), e.g. the e-mail when the admin has no name yet. */
  alternatives?: Array<{ when: Condition; body: string }>;
}

/**
 * A form shown in a modal dialog (SPEC 2.12's contact modals): a click outside does not close it; its submit makes
 * the action's call with the form data as body; success closes it, field errors stay in it.
 */
export interface ModalFormDefinition {
  schema: string;
  uiSchema?: Record<string, unknown>;
  initialData?: ValueRef | Record<string, ValueRef>;
  title: string;
  /** Locale key of the red warning that the input is lost when the dialog closes. */
  warning?: string;
  submitLabel: string;
  cancelLabel?: string;
}

/** What a button, a select or a row action does: confirm or fill a form in a dialog (optional), call, outcomes. */
export interface ActionDefinition {
  confirm?: DialogDefinition;
  form?: ModalFormDefinition;
  /** None: the action only applies its `success` outcome (e.g. sets the screen's own state). */
  call?: CallDefinition;
  outcomes: Outcome[];
}

interface BlockBase {
  when?: Condition;
}

export interface TextBlock extends BlockBase {
  type: 'text';
  /** Locale key; `<0>…</0>` marks the inline links of `links`. */
  text: string;
  values?: Record<string, ValueRef>;
  /** Values shown formatted (e.g. {"date": "weekdayDate"}). */
  formats?: Record<string, ValueFormat>;
  links?: Array<{ href: string; external?: boolean }>;
  /** danger: red (SPEC 2.11's notices). */
  style?: 'lead' | 'note' | 'attention' | 'warning' | 'danger' | 'heading' | 'subheading';
}

export interface BannerBlock extends BlockBase {
  type: 'banner';
  text: string;
  values?: Record<string, ValueRef>;
  kind?: 'info' | 'warning';
  closable?: boolean;
}

/** Links and buttons in a row: to a screen (by id), to a URL (a locale key holding it, or a value), or an action. */
export interface LinksBlock extends BlockBase {
  type: 'links';
  items: LinkItem[];
}

export interface LinkItem {
  label: string;
  /** Locale key of the accessible name, where the visible label alone is not enough ('Change' → 'Change name'). */
  ariaLabel?: string;
  screen?: ScreenLink;
  /**
   * A path inside the product whose placeholders (':requestCode') are filled from `params`, then the route's own:
   * for a screen that lives on another branch or in code (a screen of screens/ is better named by `screen`).
   */
  path?: string;
  params?: Record<string, ValueRef>;
  /** A locale key holding a URL (links.*) or a ValueRef. */
  href?: string;
  external?: boolean;
  action?: string;
  style?: 'primary' | 'danger' | 'link';
  when?: Condition;
  /** Shown as a disabled button where this condition holds (e.g. an application past its change deadline). */
  disabled?: { when: Condition };
}

export interface DetailsBlock extends BlockBase {
  type: 'details';
  rows: Array<{
    label: string;
    value?: ValueRef;
    text?: string;
    values?: Record<string, ValueRef>;
    formats?: Record<string, ValueFormat>;
    /** The text once per element of this array, the element as `$element` (e.g. an application's admins by name). */
    each?: ValueRef;
    link?: LinkItem;
    note?: string;
    when?: Condition;
  }>;
}

export interface CardsBlock extends BlockBase {
  type: 'cards';
  /** A ValueRef to an array. */
  items: ValueRef;
  title: ValueRef;
  image?: ValueRef;
  text?: ValueRef;
  link?: ScreenLink;
  /** Locale key of the list's heading. */
  heading?: string;
}

/** A table cell: text (a value or a locale key with values), a mark, a link, a select or a button. */
export interface Cell {
  type: 'text' | 'mark' | 'link' | 'select' | 'button';
  value?: ValueRef;
  text?: string;
  values?: Record<string, ValueRef>;
  /** Values shown formatted in the page's language (SPEC §9 date formats), e.g. {"date": "date"}. */
  formats?: Record<string, ValueFormat>;
  href?: ValueRef;
  /** link: to a screen (instead of href). */
  screen?: ScreenLink;
  external?: boolean;
  /**
   * The cell once per element of this array (none when it is empty or missing), the element as `$element` (its
   * `when` is checked per element): e.g. one link per warning of a row.
   */
  each?: ValueRef;
  /** select: the options (value and locale key) and the accessible label. */
  options?: Array<{ value: string; label: string }>;
  label?: string;
  action?: string;
  style?: 'primary' | 'danger' | 'link';
  when?: Condition;
}

export interface TableBlock extends BlockBase {
  type: 'table';
  rows: ValueRef;
  /** Each row's number in the context as `rowNo`: its index plus this (2 for a CSV's line under its header). */
  rowNumberFrom?: number;
  /** Rows shown greyed where the condition holds (over the context with `item` and `rowNo`). */
  muted?: { when: Condition };
  /** Blocks shown in a full-width row under each row where the condition holds (an inline form for the selected row). */
  expand?: { when: Condition; blocks: Block[] };
  /**
   * Arrays parallel to the rows: each row's context gets the element at its own index under `along.<name>`
   * (`{"warnings": "$values.warnings.users"}`: the warnings of each learner row).
   */
  alongside?: Record<string, ValueRef>;
  /** Locale key of the table's caption (read by screen readers). */
  caption: string;
  /** Show only the rows in view (and `overscan` more each way) inside a scroll container: for lists of thousands. */
  virtual?: VirtualTable;
  /** A virtual table of a paged data entry (DataDefinition.pages): its next page is loaded as the view nears its end. */
  loadsMore?: string;
  /** A column's `when` is checked against the table's context (e.g. a warnings column outside a read-only view). */
  columns: Array<{ title: string; cells: Cell[]; when?: Condition }>;
  empty?: string;
}

/** A virtualised table's layout, pixels (SPEC §9 'Users table layout'). */
export interface VirtualTable {
  /** The table's width. */
  width: number;
  /** The height of the rows' view before the page is laid out (and in tests). */
  height: number;
  /** The scroll container's maximum height. */
  maxHeight: number;
  rowHeight: number;
  /** A row's height while its `expand` blocks are shown (the row and its expansion together). */
  expandedRowHeight?: number;
  /** Rows kept in the DOM beyond the view on each side. */
  overscan: number;
  /** A row number (as `rowNo` counts: index + rowNumberFrom) to scroll into view whenever it changes (a row error chosen). */
  scrollTo?: ValueRef;
}

/**
 * A list of items, each an article: its title (a heading), an optional date (shown in the page's language), text
 * (line breaks kept) and a link opening in a new tab (e.g. the announcement page's articles).
 */
export interface ListBlock extends BlockBase {
  type: 'list';
  /** A ValueRef to an array. */
  items: ValueRef;
  /** Locale key of the list's accessible name. */
  caption: string;
  title: ValueRef;
  date?: ValueRef;
  text?: ValueRef;
  /** A link under the item's text, shown when its href has a value; the label is a locale key with the item's title. */
  link?: { href: ValueRef; label: string };
  /** Locale key shown instead of an empty list. */
  empty?: string;
  /** code: each item its title only, in monospace, no heading (recovery codes). */
  style?: 'code';
}

export interface FormBlock extends BlockBase {
  type: 'form';
}

export interface PanelBlock extends BlockBase {
  type: 'panel';
  title?: string;
  style?: 'info' | 'hint';
  blocks: Block[];
}

/** A picture (decorative unless `alt` names it): a banner image of loaded data. Nothing shows without a source. */
export interface ImageBlock extends BlockBase {
  type: 'image';
  src: ValueRef;
  /** Locale key of the text alternative; none: decorative. */
  alt?: string;
  width?: number;
  height?: number;
}

/**
 * Blocks side by side: a main column and a narrower side column (stacked on small screens), or a column as wide as
 * its content ('fit': an image at its own width, a QR code) with the main column beside it, under it when both do
 * not fit.
 */
export interface ColumnsBlock extends BlockBase {
  type: 'columns';
  columns: Array<{ blocks: Block[]; width?: 'main' | 'side' | 'fit' }>;
}

/**
 * A button per element of a list of links in the data (e.g. a service's urls {url, category, label}): `each.when`
 * picks the elements (a condition over the context with the element as `item`), `label` and `href` are values of it.
 * An absolute URL opens in a new tab; a relative one navigates inside the product. Beside each button the first of
 * `texts` whose condition holds (none: no text).
 */
export interface LinkListBlock extends BlockBase {
  type: 'linkList';
  items: ValueRef;
  each: {
    when?: Condition;
    label: ValueRef;
    href: ValueRef;
    style?: 'primary' | 'link' | 'button';
    texts?: Array<{ when?: Condition; text: string; values?: Record<string, ValueRef> }>;
  };
}

/** A button choosing a file: the choice runs `action` with the file as `$file` (e.g. a multipart upload). */
export interface UploadBlock extends BlockBase {
  type: 'upload';
  label: string;
  /** The input's accept attribute ('.csv,text/csv'). */
  accept?: string;
  action: string;
  style?: 'primary' | 'link';
}

/**
 * A list whose every item is a link to a screen (e.g. SPEC 2.9's applications, each to its details): the item's
 * `title` cells in a line (text and marks), then its `cells`, each a line; the item is `$item`.
 */
export interface ItemListBlock extends BlockBase {
  type: 'itemList';
  items: ValueRef;
  /** Locale key of the list's accessible name. */
  caption: string;
  link: ScreenLink;
  title: Cell[];
  cells: Cell[];
  /** Locale key shown instead of an empty list. */
  empty?: string;
}

/**
 * A dropdown bound to a query parameter of the URL (SPEC 2.9's sort order in `order_by`): choosing an option puts
 * its value in the URL, which enters the screen again and so reloads its data; the screen's `query` gives the default.
 */
export interface SelectBlock extends BlockBase {
  type: 'select';
  /** Locale key of the label. */
  label: string;
  query: string;
  options: Array<{ value: string; label: string }>;
  /**
   * More options, one per element of a list of the screen's data (e.g. the organisation's admins), after `options`:
   * each `$item`'s `value`, its label the locale key `label` with `values`.
   */
  optionsFrom?: { items: ValueRef; value: ValueRef; label: string; values?: Record<string, ValueRef> };
}

/** A date bound to a query parameter (YYYY-MM-DD, empty for none): e.g. the first day of a period. */
export interface DateBlock extends BlockBase {
  type: 'date';
  /** Locale key of the label. */
  label: string;
  query: string;
}

/**
 * Blocks shared by screens (screens/fragments/<name>.json), shown with `values` as `$values.<name>`: e.g. SPEC
 * 2.11's order summary on the wizard's confirm step and on Application Details (`{"detail": true}`).
 */
export interface FragmentBlock extends BlockBase {
  type: 'fragment';
  name: string;
  /** The fragment's inputs: values of the using context ('$data.subscription.corporateSubscription') or literals. */
  values?: Record<string, unknown>;
}

/** A fragment file: its inputs (described in words) and its blocks. */
export interface FragmentDefinition {
  /** What each input of `$values` is. */
  values?: Record<string, string>;
  blocks: Block[];
}

/** A divider with a label (SPEC 2.15's 'preview'). */
export interface DividerBlock extends BlockBase {
  type: 'divider';
  label: string;
}

/**
 * A bar chart of points of the data (e.g. learners by month and service group): a bar per category (`x`, in the order
 * first seen) stacked of a segment per series (`series`, a colour each in the order first seen, named in the legend),
 * each segment its `value` (points of the same category and series add up; a missing one is 0), against a y-axis of
 * round numbers. Drawn as plain SVG, an image named by `title`; the same numbers are a table for screen readers (a row
 * per category, a column per series and the total). Without points: the `empty` text (none: nothing).
 */
export interface ChartBlock extends BlockBase {
  type: 'chart';
  /** Locale key of the chart's title (shown above it; the image's accessible name). */
  title: string;
  /** Locale key of the caption of the table of its numbers (read by screen readers). */
  caption: string;
  /** A ValueRef to an array of objects, the points. */
  points: ValueRef;
  /** The field of a point holding its category (a bar each, labelled under the x-axis). */
  x: string;
  /** The field of a point holding the name of its series. */
  series: string;
  /** The field of a point holding its number (not a number: 0; drawn from 0 up, a negative one not drawn). */
  value: string;
  /** How a category is written under its bar and in the table, e.g. `month` ('2026-06': 'Jun 2026', '2026年6月'). */
  xFormat?: ValueFormat;
  /** Locale key shown instead of a chart without points. */
  empty?: string;
}

export type Block = ItemListBlock | SelectBlock | DateBlock | FragmentBlock | UploadBlock | DividerBlock | TextBlock | BannerBlock | LinksBlock | DetailsBlock | CardsBlock | TableBlock | ListBlock | FormBlock | PanelBlock | ImageBlock | ColumnsBlock | LinkListBlock | ChartBlock;

export interface ScreenDefinition {
  id: string;
  path: string;
  access: AccessClass;
  width: PageWidth;
  /** Locale key of the page title, or a value of the screen's loaded data ('$data.detail.service.name'). */
  title: string;
  /** Locale key of a lead paragraph shown under the title. */
  lead?: string;
  breadcrumb: BreadcrumbItem[];
  /** Defaults of the URL's query parameters (`$query.<name>` when the URL has none), e.g. a list's sort order. */
  query?: Record<string, string>;
  /** Only when this feature flag is enabled; otherwise, once the flags are known, to top. */
  flag?: string;
  /** What the screen loads on entering, by key (shown as `data.<key>`). */
  data?: Record<string, DataDefinition>;
  /** What the screen shows, in order. */
  blocks?: Block[];
  /** The screen's actions, named by links, cells and buttons. */
  actions?: Record<string, ActionDefinition>;
  /** After this many milliseconds, go to `redirect.to`. */
  redirect?: { afterMs: number; to: ScreenLink };
  form?: FormDefinition;
  /** Locale keys shown on the done step. */
  done?: { title: string; message: string };
  /** Id of a component in the component registry, for what data cannot say. */
  component?: string;
  /**
   * A sensitive page (SPEC 2.6): on entering it, GET admin/re_authentication_expiration; when re-authentication has
   * expired, the admin signs in again with prompt=login and comes back.
   */
  reauthentication?: boolean;
  /** Locale keys of the step labels, by step. */
  stepLabels?: Partial<Record<FormStep, string>>;
  /** Locale keys of steps shown as done before the form's own (SPEC 2.1: the new wizard's 'Select type'). */
  stepsBefore?: string[];
  /** The page title per step (SPEC 2.11: 'new index / confirm / done'), instead of `title` on that step. */
  stepTitles?: Partial<Record<FormStep, string>>;
  /** Generated into the route table (src/configuration/split.ts), never written in screens/: see RoutePreload. */
  preload?: RoutePreload;
}

/**
 * What the first load starts the moment a route is matched, beside the screen's code (issue 26): its data calls
 * that need nothing but the URL, the session and the language (no `after`, `when`, body or token), and the form it
 * shows at once, whose validators are a chunk of their own.
 */
export interface RoutePreload {
  data?: Record<string, CallDefinition>;
  form?: string;
  /** The screen shows a browser date field at once: one is made ahead, after the frame's paint (engine/dateFieldAhead.ts). */
  dateField?: true;
  /** The screen shows a virtualised table: the block engine asks for its chunk once it is there (engine/screen/preload.ts). */
  virtualTable?: true;
}

/** The header's account menu and the footer links (frame/navigation.json). */
export interface NavigationDefinition {
  menu: LinkItem[];
  footer: LinkItem[];
}
