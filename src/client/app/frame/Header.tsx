/**
 * SPEC 2.2 header: the logo of the language; when signed in, the corporation's official name, its [gloplaId], the
 * admin's full name, the announcements icon and the account menu. The menu is a disclosure: a button with aria-expanded that opens a list of
 * links; Escape or a click outside closes it and Escape returns the focus to the button.
 */
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import navigation from '../../../../build/generated/navigation.json';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../common/languages.js';
import type { NavigationDefinition } from '../../../common/screens.js';
import type { FeatureFlagsRootState } from '../../engine/featureFlags.js';
import { selectAnnouncementPageUrl } from '../../engine/portalSettings.js';
import { allAnnouncementsMarkedRead, announcementsRequested, selectUnreadAnnouncementCount } from '../../features/announcements/index.js';
import { LinkView } from '../../engine/screen/LinkView.js';
import { isLoggedIn, selectMe, selectOrganization, selectRole, type SessionRootState } from '../../state/session.js';
import logoEn from './logo-en.inline.svg';
import logoJa from './logo-ja.inline.svg';

/** Each language's logo, its SVG markup: drawn in the page, not as an <img> (a document of its own to create and lay out). */
const LOGOS: Record<string, string> = { ja: logoJa, en: logoEn };

/** The menu's entries (frame/navigation.json); conditions read the role and the feature flags (roles: SPEC §6). */
const MENU = (navigation as NavigationDefinition).menu;

function AccountMenu(): ReactElement {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const container = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const flags = useSelector((state: FeatureFlagsRootState) => state.featureFlags);
  const role = useSelector((state: SessionRootState) => selectRole(state));

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: MouseEvent) => {
      if (container.current && !container.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onPointer);
    };
  }, [open]);

  return (
    <nav className="menu" ref={container} aria-label={t('common.menu.label')}>
      <button
        ref={toggle}
        type="button"
        className="menu__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        {t('common.menu.label')}
      </button>
      <ul className="menu__list" id={listId} hidden={!open} onClick={() => setOpen(false)}>
        {MENU.map((item) => (
          <li key={item.label}>
            <LinkView item={item} context={{ role, flags: flags as Record<string, boolean> }} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * SPEC 2.2: the announcements icon. It opens the announcement page (ANNOUNCEMENT_PAGE_URL, by default the portal's own
 * /announcements) in a new tab and marks every current article read; its badge shows the unread count above 0, which
 * the accessible name says too. Showing it asks for the admin's articles and read ids.
 */
function AnnouncementsIcon({ adminId }: { adminId: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const unread = useSelector(selectUnreadAnnouncementCount);
  const href = useSelector(selectAnnouncementPageUrl(language));
  useEffect(() => {
    dispatch(announcementsRequested({ adminId, language }));
  }, [adminId, language, dispatch]);
  return (
    <a
      className="announcements-icon"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={unread > 0 ? t('announcements.iconUnread', { count: unread }) : t('announcements.icon')}
      onClick={() => dispatch(allAnnouncementsMarkedRead())}
    >
      <svg className="announcements-icon__bell" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" />
      </svg>
      {unread > 0 && (
        <span className="announcements-icon__badge" aria-hidden="true">
          {unread}
        </span>
      )}
    </a>
  );
}

export function Header(): ReactElement {
  const { t, i18n } = useTranslation();
  const loggedIn = useSelector(isLoggedIn);
  const organization = useSelector((state: SessionRootState) => selectOrganization(state));
  const me = useSelector((state: SessionRootState) => selectMe(state));
  return (
    <header className="header">
      <Link to="/" className="header__logo">
        {/* the project's own build-time file, not data: nothing in it comes from a user */}
        <span role="img" aria-label={t('common.logoAlt')} dangerouslySetInnerHTML={{ __html: LOGOS[i18n.language] ?? logoJa }} />
      </Link>
      {loggedIn && organization && (
        <div className="header__account">
          <span className="header__organization">
            {t('auth.organization', { name: organization.corporationOfficialName ?? '', gloplaId: organization.gloplaId })}
          </span>
          {me && <span className="header__name">{t('auth.fullName', { person: me })}</span>}
          {me && <AnnouncementsIcon adminId={me.id} />}
          <AccountMenu />
        </div>
      )}
    </header>
  );
}
