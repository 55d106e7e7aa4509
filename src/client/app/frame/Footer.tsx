import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../../common/languages.js';
import { LANGUAGE_STORAGE_KEY } from '../../engine/i18n.js';

const FOOTER_LINKS = ['corporateProfile', 'terms', 'privacy', 'environment', 'faq', 'inquiry'] as const;

/** Switching language remembers the choice and reloads the page (SPEC 2.2). */
function LanguageSwitcher(): ReactElement {
  const { t, i18n } = useTranslation();
  return (
    <label className="language">
      <span>{t('common.languages.label')}</span>
      <select
        value={i18n.language}
        onChange={(event) => {
          window.localStorage.setItem(LANGUAGE_STORAGE_KEY, event.target.value);
          window.location.reload();
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`common.languages.${language}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Footer(): ReactElement {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <ul className="footer__links">
        {FOOTER_LINKS.map((name) => (
          <li key={name}>
            <a href={t(`links.${name}`)} target="_blank" rel="noreferrer">
              {t(`common.footer.${name}`)}
            </a>
          </li>
        ))}
      </ul>
      <LanguageSwitcher />
    </footer>
  );
}
