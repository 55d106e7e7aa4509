/** Shape of a screen definition in screens/*.json (DESIGN principle 2). */
export const ACCESS_CLASSES = ['public', 'member', 'admin', 'unguarded'] as const;
export type AccessClass = (typeof ACCESS_CLASSES)[number];

export const PAGE_WIDTHS = ['normal', 'wide', 'userList'] as const;
export type PageWidth = (typeof PAGE_WIDTHS)[number];

export const FORM_STEPS = ['input', 'confirm', 'done'] as const;
export type FormStep = (typeof FORM_STEPS)[number];

export interface BreadcrumbItem {
  /** Locale key of the label. */
  label: string;
  /** Link target; the last item is the current page and has none. */
  to?: string;
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
  /** The API call made on submit; body is the form data. */
  submit: { method: 'POST' | 'PUT' | 'PATCH'; path: string; label: string };
  /** Label of the button that leads from input to confirm. */
  confirmLabel?: string;
  /**
   * Dotted path into the store's state (e.g. 'session.me') whose values fill the form at first: only the schema's
   * own properties are taken. With disabledUntilChanged, submit waits until the data differs from these.
   */
  initialData?: string;
  /**
   * Server errors the form shows on a field instead of the general handling (SPEC §8), e.g.
   * {status: 400, code: 'current_password_mismatch', field: 'current', message: 'account.password.currentMismatch'}.
   */
  errors?: FormErrorMapping[];
  /** What happens after a successful submit. */
  onSuccess?: {
    flash?: string;
    navigate?: string;
    /** An action type dispatched with the response as payload, for a feature to act on (e.g. 'account/nameUpdated'). */
    event?: string;
  };
}

export interface FormErrorMapping {
  /** HTTP status; any when absent. */
  status?: number;
  /** The response's `error` code. */
  code: string;
  /** The form field that shows the message. */
  field: string;
  /** Locale key of the message. */
  message: string;
}

export interface ScreenDefinition {
  id: string;
  path: string;
  access: AccessClass;
  width: PageWidth;
  /** Locale key of the page title. */
  title: string;
  /** Locale key of a lead paragraph shown under the title. */
  lead?: string;
  breadcrumb: BreadcrumbItem[];
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
}
