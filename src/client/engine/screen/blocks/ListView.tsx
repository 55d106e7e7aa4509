import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../../common/languages.js';
import type { ListBlock } from '../../../../common/screens.js';
import { formatDate } from '../../dates.js';
import { resolveValue } from '../values.js';
import type { BlockProps } from './shared.js';

export function ListView({ block, context }: BlockProps<ListBlock>): ReactElement {
  const { t } = useTranslation();
  const items = (resolveValue(block.items, context) as unknown[] | undefined) ?? [];
  if (items.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  const language = isLanguage(context.language) ? context.language : DEFAULT_LANGUAGE;
  if (block.style === 'code') {
    return (
      <ul className="code-list" aria-label={t(block.caption)}>
        {items.map((item, index) => (
          <li key={index}>
            <code>{String(resolveValue(block.title, { ...context, item }) ?? '')}</code>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="article-list" aria-label={t(block.caption)}>
      {items.map((item, index) => {
        const itemContext = { ...context, item };
        const title = String(resolveValue(block.title, itemContext) ?? '');
        const date = resolveValue(block.date, itemContext);
        const href = block.link ? resolveValue(block.link.href, itemContext) : undefined;
        return (
          <li key={index} className="article-list__item">
            <article>
              <h2 className="article-list__title">{title}</h2>
              {typeof date === 'string' && date !== '' && (
                <time className="article-list__date" dateTime={date}>
                  {formatDate(date, language)}
                </time>
              )}
              {String(resolveValue(block.text, itemContext) ?? '')
                .split('\n')
                .filter((line) => line !== '')
                .map((line, lineIndex) => (
                  <p key={lineIndex} className="article-list__text">
                    {line}
                  </p>
                ))}
              {block.link && typeof href === 'string' && href !== '' && (
                <a className="article-list__link" href={href} target="_blank" rel="noopener noreferrer">
                  {t(block.link.label, { title })}
                </a>
              )}
            </article>
          </li>
        );
      })}
    </ul>
  );
}
