import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import { isLoggedIn, selectMe, selectOrganization, type SessionRootState } from '../../state/session.js';
import logoEn from './logo-en.svg';
import logoJa from './logo-ja.svg';

const LOGOS: Record<string, string> = { ja: logoJa, en: logoEn };

function AccountMenu(): ReactElement {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const items: Array<{ to: string; label: string; external?: boolean }> = [
    { to: '/', label: 'common.menu.home' },
    { to: '/memberships', label: 'common.menu.memberships' },
    { to: '/account', label: 'common.menu.account' },
    { to: '/signin', label: 'common.menu.organizations' },
    { to: t('links.faq'), label: 'common.menu.faq', external: true },
    { to: '/signout', label: 'common.menu.logout' },
  ];
  return (
    <nav className="menu">
      <button type="button" className="menu__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('common.menu.label')}
      </button>
      {open && (
        <ul className="menu__list" onClick={() => setOpen(false)}>
          {items.map((item) => (
            <li key={item.label}>
              {item.external ? (
                <a href={item.to} target="_blank" rel="noreferrer">{t(item.label)}</a>
              ) : (
                <Link to={item.to}>{t(item.label)}</Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

/** SPEC 2.2 header: the logo of the language; when signed in, the organisation, its gloplaId and the admin's name. */
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
            {organization.corporationOfficialName} [{organization.gloplaId}]
          </span>
          {me && <span className="header__name">{me.lastName} {me.firstName}</span>}
          <AccountMenu />
        </div>
      )}
    </header>
  );
}
