import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { getDefaultRegistry } from '@rjsf/core';
import type { WidgetProps } from '@rjsf/utils';

const DefaultCheckbox = getDefaultRegistry().widgets.CheckboxWidget;

/** The standard checkbox of a boolean field, its label (a locale key, the schema's title) translated. */
export function CheckboxWidget(props: WidgetProps): ReactElement {
  const { t } = useTranslation();
  return <DefaultCheckbox {...props} label={props.label ? t(props.label) : props.label} />;
}
