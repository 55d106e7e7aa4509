import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { LinkItem, ScreenDefinition } from '../../../../common/screens.js';
import { isPending, type OperationsRootState } from '../../../state/operations.js';
import { matches } from '../conditions.js';
import { actionOperation } from '../dialogState.js';
import { linkClassName, LinkView } from '../LinkView.js';
import type { ScreenContext } from '../values.js';
import { useRunAction } from './shared.js';

/** A link to a screen or URL, or a button running an action. */
export function LinkItemView({ item, screen, context }: { item: LinkItem; screen: ScreenDefinition; context: ScreenContext }): ReactElement | null {
  const { t } = useTranslation();
  const run = useRunAction(screen);
  const pending = useSelector((state: OperationsRootState) => (item.action ? isPending(actionOperation(screen.id, item.action))(state) : false));
  if (!item.action) return <LinkView item={item} context={context} className={linkClassName(item.style)} />;
  if (!matches(item.when, context)) return null;
  const disabled = item.disabled !== undefined && matches(item.disabled.when, context);
  return (
    <button type="button" className={linkClassName(item.style)} aria-label={item.ariaLabel ? t(item.ariaLabel) : undefined} disabled={pending || disabled} onClick={() => run(item.action!, context)}>
      {t(item.label)}
    </button>
  );
}
