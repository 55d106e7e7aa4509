import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { isLanguage, DEFAULT_LANGUAGE } from '../../../common/languages.js';
import { noticeText, selectNotices } from '../../features/notices/index.js';

/** The provider's notices for this portal, in red above the page content, in the current language (SPEC 2.2). */
export function Notices(): ReactElement | null {
  const { t, i18n } = useTranslation();
  const notices = useSelector(selectNotices);
  if (notices.length === 0) return null;
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return (
    // a named section is a region landmark: no page content outside landmarks (axe: region)
    <section className="notices" aria-label={t('common.notices')}>
      <ul className="notices__list">
        {notices.map((notice) => (
          <li key={notice.id}>{noticeText(notice, language)}</li>
        ))}
      </ul>
    </section>
  );
}
