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
  /** What happens after a successful submit. */
  onSuccess?: { flash?: string; navigate?: string };
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
  /** Locale keys of the step labels, by step. */
  stepLabels?: Partial<Record<FormStep, string>>;
}
