/**
 * The widget registry: ids that uiSchemas in screens/ may name with "ui:widget". Adding a widget means adding it
 * here; `npm run check:config` rejects a screen naming an id that is not in WIDGET_IDS.
 */
import type { RegistryWidgetsType } from '@rjsf/utils';
import { CaptchaWidget } from './CaptchaWidget.js';
import { ChoiceWidget } from './ChoiceWidget.js';
import { ChoicesWidget } from './ChoicesWidget.js';
import { ContactSelectWidget } from './ContactSelectWidget.js';
import { DateInputWidget } from './DateInputWidget.js';
import { PasswordInputWidget, PasswordStrengthWidget } from './PasswordWidget.js';
import { SelectWidget } from './SelectWidget.js';
import { WIDGET_IDS, type WidgetId } from './ids.js';

/** Built-in widgets replaced by translating versions, plus the custom ones by id. */
export const widgets: Record<WidgetId, RegistryWidgetsType[string]> = {
  SelectWidget,
  PasswordInput: PasswordInputWidget,
  PasswordStrength: PasswordStrengthWidget,
  Captcha: CaptchaWidget,
  Choice: ChoiceWidget,
  Choices: ChoicesWidget,
  DateInput: DateInputWidget,
  ContactSelect: ContactSelectWidget,
};

export { WIDGET_IDS };
