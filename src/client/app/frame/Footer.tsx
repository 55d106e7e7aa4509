import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_STORAGE_KEY, LANGUAGES } from '../../../common/languages.js';
import navigation from '../../../../build/generated/navigation.json';
import type { NavigationDefinition } from '../../../common/screens.js';
import { LinkView } from '../../engine/screen/LinkView.js';

/** The footer's links (frame/navigation.json). */
const FOOTER = (navigation as NavigationDefinition).footer;

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
  return (
    <footer className="footer">
      <ul className="footer__links">
        {FOOTER.map((item) => (
          <li key={item.label}>
            <LinkView item={item} context={{}} />
          </li>
        ))}
      </ul>
      <LanguageSwitcher />
    </footer>
  );
}
