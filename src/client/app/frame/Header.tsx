/**
 * SPEC 2.2 header: the logo of the language; when signed in, the corporation's official name, its [gloplaId], the
 * admin's full name and the account menu. The menu is a disclosure: a button with aria-expanded that opens a list of
 * links; Escape or a click outside closes it and Escape returns the focus to the button.
 */
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { isFeatureEnabled, type FeatureFlagsRootState } from '../../engine/featureFlags.js';
import { isLoggedIn, selectMe, selectOrganization, type SessionRootState } from '../../state/session.js';
import logoEn from './logo-en.svg';
import logoJa from './logo-ja.svg';

const LOGOS: Record<string, string> = { ja: logoJa, en: logoEn };

interface MenuItem {
  to: string;
  label: string;
  external?: boolean;
}

/** Pure: the menu's items; roles only with the product_admin_roles flag (SPEC 2.2, §6). */
export function menuItems(rolesEnabled: boolean, faqUrl: string): MenuItem[] {
  return [
    { to: '/', label: 'common.menu.home' },
    { to: '/memberships', label: 'common.menu.memberships' },
    ...(rolesEnabled ? [{ to: '/roles', label: 'common.menu.roles' }] : []),
    { to: '/account', label: 'common.menu.account' },
    // back to the provider, which shows the organisation choice again
    { to: '/signin?prompt=select_account', label: 'common.menu.organizations' },
    { to: faqUrl, label: 'common.menu.faq', external: true },
    { to: '/signout', label: 'common.menu.logout' },
  ];
}

function AccountMenu(): ReactElement {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const container = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const rolesEnabled = useSelector((state: FeatureFlagsRootState) => isFeatureEnabled('product_admin_roles')(state));

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
        {menuItems(rolesEnabled, t('links.faq')).map((item) => (
          <li key={item.label}>
            {item.external ? (
              <a href={item.to} target="_blank" rel="noreferrer">
                {t(item.label)}
              </a>
            ) : (
              <Link to={item.to}>{t(item.label)}</Link>
            )}
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
