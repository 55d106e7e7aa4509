/**
 * The widget registry: ids that uiSchemas in screens/ may name with "ui:widget" (and, for fields, "ui:field"). Adding
 * a widget means adding it here; `npm run check:config` rejects a screen naming an id that is not in WIDGET_IDS
 * (FIELD_IDS), and a field's ui:options that its schema in ids.ts refuses.
 */
import type { RegistryFieldsType, RegistryWidgetsType } from '@rjsf/utils';
import { CaptchaWidget } from './CaptchaWidget.js';
import { CheckboxWidget } from './CheckboxWidget.js';
import { ChoiceWidget } from './ChoiceWidget.js';
import { ChoicesWidget } from './ChoicesWidget.js';
import { ContactSelectWidget } from './ContactSelectWidget.js';
import { DateInputWidget } from './DateInputWidget.js';
import { PasswordInputWidget, PasswordStrengthWidget } from './PasswordWidget.js';
import { SelectWidget } from './SelectWidget.js';
import { LearnerGridField } from './LearnerGridField.js';
import { FIELD_IDS, WIDGET_IDS, type FieldId, type WidgetId } from './ids.js';

/** Built-in widgets replaced by translating versions, plus the custom ones by id. */
export const widgets: Record<WidgetId, RegistryWidgetsType[string]> = {
  SelectWidget,
  CheckboxWidget,
  PasswordInput: PasswordInputWidget,
  PasswordStrength: PasswordStrengthWidget,
  Captcha: CaptchaWidget,
  Choice: ChoiceWidget,
  Choices: ChoicesWidget,
  DateInput: DateInputWidget,
  ContactSelect: ContactSelectWidget,
};

/** Custom fields by id, for "ui:field" (ids and their ui:options schemas in ids.ts). */
export const fields: Record<FieldId, RegistryFieldsType[string]> = {
  LearnerGrid: LearnerGridField,
};

export { FIELD_IDS, WIDGET_IDS };
