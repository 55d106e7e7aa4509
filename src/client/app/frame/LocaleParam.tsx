import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { LOCALE_QUERY_PARAM } from '../../engine/i18n.js';
import { isLanguage, LANGUAGE_STORAGE_KEY } from '../../../common/languages.js';

/**
 * The `locale` query parameter chose the language at start-up (see chooseLanguage); remember it and take it out of
 * the address with a replace navigation (SPEC 2.2).
 */
export function LocaleParam(): null {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    // a mail client may have left '&amp;' in a mailed link literally (SPEC 2.5): read it as '&'
    const params = new URLSearchParams(location.search.replace(/amp;/g, ''));
    const locale = params.get(LOCALE_QUERY_PARAM);
    if (locale === null) return;
    if (isLanguage(locale)) window.localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
    params.delete(LOCALE_QUERY_PARAM);
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true, state: location.state });
  }, [location, navigate]);
  return null;
}
