/** SPEC 2.2: asks for the support chat widget in the page's language once the settings say there is one. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../common/languages.js';
import { selectPortalSettings } from '../../engine/portalSettings.js';
import { supportChatRequested } from '../../features/supportChat/index.js';

export function SupportChat(): null {
  const { i18n } = useTranslation();
  const dispatch = useDispatch();
  const settings = useSelector(selectPortalSettings).supportChat;
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  useEffect(() => {
    if (settings) dispatch(supportChatRequested({ settings, language }));
  }, [settings, language, dispatch]);
  return null;
}
