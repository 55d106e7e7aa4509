import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { getDefaultRegistry } from '@rjsf/core';
import type { WidgetProps } from '@rjsf/utils';

const DefaultSelect = getDefaultRegistry().widgets.SelectWidget;

/** The standard select with translated option labels and placeholder. */
export function SelectWidget(props: WidgetProps): ReactElement {
  const { t } = useTranslation();
  const enumOptions = props.options.enumOptions?.map((option) => ({ ...option, label: t(option.label) }));
  return (
    <DefaultSelect
      {...props}
      placeholder={props.placeholder ? t(props.placeholder) : undefined}
      options={{ ...props.options, enumOptions }}
    />
  );
}
