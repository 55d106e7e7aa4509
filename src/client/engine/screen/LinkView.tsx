/**
 * A link of the configuration (LinkItem without an action): to a screen by id, to a path of the product with its
 * placeholders filled, or to a URL held by a `links.*` locale key or a value of the context; where its `disabled`
 * condition holds, a disabled button with the same words. Used by the blocks and by the page frame's menu and footer (frame/navigation.json).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'react-router-dom';
import type { LinkItem } from '../../../common/screens.js';
import { matches } from './conditions.js';
import { fillRoutePath, screenPath } from './navigation.js';
import { prefetchScreen } from './screenModule.js';
import { resolveValue, resolveValues, type ScreenContext } from './values.js';

/** `links.*` locale keys hold URLs; anything else is a value of the context (or a literal URL). */
export function hrefOf(href: string, context: Partial<ScreenContext>, t: TFunction): string {
  return href.startsWith('links.') ? t(href) : String(resolveValue(href, context) ?? '');
}

export function linkClassName(style: LinkItem['style']): string {
  if (style === 'link') return 'link';
  return `button${style === 'primary' ? ' button--primary' : style === 'danger' ? ' button--danger' : ''}`;
}

export function LinkView({ item, context, className }: { item: LinkItem; context: Partial<ScreenContext>; className?: string }): ReactElement | null {
  const { t, i18n } = useTranslation();
  const target = item.screen?.screen;
  const prefetch = target ? () => prefetchScreen(i18n, target) : undefined;
  const intent = { onMouseEnter: prefetch, onFocus: prefetch, onTouchStart: prefetch };
  if (!matches(item.when, context)) return null;
  const ariaLabel = item.ariaLabel ? t(item.ariaLabel) : undefined;
  if (item.disabled !== undefined && matches(item.disabled.when, context)) {
    return (
      <button type="button" className={className} aria-label={ariaLabel} disabled>
        {t(item.label)}
      </button>
    );
  }
  if (item.path) {
    return (
      <Link className={className} aria-label={ariaLabel} to={fillRoutePath(item.path, { ...context.params, ...resolveValues(item.params, context) })}>
        {t(item.label)}
      </Link>
    );
  }
  if (item.screen) {
    return (
      <Link className={className} aria-label={ariaLabel} to={screenPath(item.screen, context)} {...intent}>
        {t(item.label)}
      </Link>
    );
  }
  return (
    <a className={className} aria-label={ariaLabel} href={hrefOf(item.href ?? '', context, t)} {...(item.external ? { target: '_blank', rel: 'noreferrer' } : {})}>
      {t(item.label)}
    </a>
  );
}
