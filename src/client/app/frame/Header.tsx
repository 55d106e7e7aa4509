/**
 * SPEC 2.2 header: the logo of the language; when signed in, the corporation's official name, its [gloplaId], the
 * admin's full name and the account menu. The menu is a disclosure: a button with aria-expanded that opens a list of
 * links; Escape or a click outside closes it and Escape returns the focus to the button.
 */
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import navigation from '../../../../build/generated/navigation.json';
import type { NavigationDefinition } from '../../../common/screens.js';
import type { FeatureFlagsRootState } from '../../engine/featureFlags.js';
import { LinkView } from '../../engine/screen/LinkView.js';
import { isLoggedIn, selectMe, selectOrganization, selectRole, type SessionRootState } from '../../state/session.js';
import logoEn from './logo-en.svg';
import logoJa from './logo-ja.svg';

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

export function Header(): ReactElement {
  const { t, i18n } = useTranslation();
  const loggedIn = useSelector(isLoggedIn);
  const organization = useSelector((state: SessionRootState) => selectOrganization(state));
  const me = useSelector((state: SessionRootState) => selectMe(state));
  return (
    <header className="header">
      <Link to="/" className="header__logo">
        <img src={LOGOS[i18n.language] ?? logoJa} alt={t('common.logoAlt')} height={32} />
      </Link>
      {loggedIn && organization && (
        <div className="header__account">
          <span className="header__organization">
            {t('auth.organization', { name: organization.corporationOfficialName ?? '', gloplaId: organization.gloplaId })}
          </span>
          {me && <span className="header__name">{t('auth.fullName', { firstName: me.firstName, lastName: me.lastName })}</span>}
          <AccountMenu />
        </div>
      )}
    </header>
  );
}
