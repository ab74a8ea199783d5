import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AlarmIcon, ChevronDownIcon, LockIcon, PaletteIcon, SignOutIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { ClockSettings } from './clock-settings';
import { PushSettings } from './push-settings';
import { offeredThemes, themeNamed, type ThemeName } from '@fieldlink/domain/app-variant';
import { putUser } from '../../features/accounts/api/put-user';
import { useEmailResetCodeMutation } from '../../features/session/api/post-email-reset-code';
import { serverMessageOr } from '../../lib/api-client';
import { appStore, chooseStoredTheme, showToast } from '../../lib/app-store/app-store';
import { THEME_LABELS } from '../../lib/themes/palettes';
import { currentSubdomain } from '../../lib/subdomain';
import { useStore } from '../../lib/use-store';

function initialsOf(name: string | null, email: string | null): string {
  const source = name?.trim() || email || '?';
  const parts = source.split(/[\s@.]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (name ? (parts[1]?.[0] ?? '') : '')).toUpperCase();
}

/**
 * The user's theme choice: kept under the local key `theme` at once and on the user's record, so it
 * follows them to another browser. A failed save keeps the local choice and says so.
 */
function chooseTheme(email: string | null, theme: ThemeName): void {
  chooseStoredTheme(theme);
  if (!email) return;
  putUser({ email, props: { theme } }).catch(() =>
    showToast('warning', 'The theme is kept in this browser only: it could not be saved to your account.'),
  );
}

/**
 * Avatar button with the account menu: the profile (name, e-mail), the theme, the clock, notifications on this browser, changing the password
 * (a link mailed to the signed-in address, the same proof of ownership a reset asks), sign out.
 */
export function UserMenu() {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const themeId = useId();
  const email = useStore(appStore, (s) => s.session.email);
  const displayName = useStore(appStore, (s) => s.session.displayName);
  const storedTheme = useStore(appStore, (s) => s.storedTheme);
  const account = useStore(appStore, (s) => s.session.account);
  // DEFAULT, DARK and the brands of this account and host: never another customer's brand.
  const themes = offeredThemes(currentSubdomain(), account);
  const passwordLink = useEmailResetCodeMutation();
  const selectedTheme =
    themes.find((name) => name === themeNamed(storedTheme)) ?? themeNamed(account?.theme) ?? 'DEFAULT';

  useEffect(() => {
    if (!open) return;
    // Toasts step aside while the menu is open, so a message never covers it.
    document.body.setAttribute('data-account-menu-open', '');
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.body.removeAttribute('data-account-menu-open');
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        type="button"
        className="user-menu__trigger"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        {/* Named by its content, so the name a person reads is the name a voice user says (WCAG 2.5.3). */}
        <span className="fl-visually-hidden">Account menu: </span>
        <span className="user-menu__avatar" aria-hidden="true">
          {initialsOf(displayName, email)}
        </span>
        <span className="user-menu__name">{displayName ?? email ?? 'Account'}</span>
        <ChevronDownIcon size={16} />
      </button>
      {open && (
        <div className="user-menu__panel fl-card" id={menuId}>
          <div className="user-menu__who">
            <div className="user-menu__who-name">{displayName ?? 'Signed in'}</div>
            <div className="user-menu__who-email">{email}</div>
          </div>
          <div className="user-menu__section">
            <label className="user-menu__label" htmlFor={themeId}>
              <PaletteIcon size={16} /> Theme
            </label>
            <select
              id={themeId}
              className="fl-select user-menu__select"
              value={selectedTheme}
              onChange={(event) => {
                const theme = themeNamed(event.target.value);
                if (theme) chooseTheme(email, theme);
              }}
            >
              {themes.map((name) => (
                <option key={name} value={name}>
                  {THEME_LABELS[name]}
                </option>
              ))}
            </select>
          </div>
          <ClockSettings email={email} />
          <PushSettings />
          <button
            type="button"
            className="user-menu__item user-menu__item--button"
            disabled={!email || passwordLink.isPending}
            onClick={() => {
              if (!email) return;
              passwordLink.mutate(
                { email, subdomain: currentSubdomain(), isLinkReset: true },
                {
                  onSuccess: () =>
                    showToast('success', `We sent a link to set a new password to ${email}. It is valid for one hour.`),
                  onError: (error) => showToast('error', serverMessageOr(error, 'Error requesting reset link.')),
                },
              );
            }}
          >
            {passwordLink.isPending ? <Spinner size={16} /> : <LockIcon size={16} />} Change password
          </button>
          <Link to="/account/security" className="user-menu__item" onClick={() => setOpen(false)}>
            <LockIcon size={16} /> Two-factor authentication
          </Link>
          <Link to="/account/notifications" className="user-menu__item" onClick={() => setOpen(false)}>
            <AlarmIcon size={16} /> Alarm notifications
          </Link>
          <Link to="/signout" className="user-menu__item user-menu__item--danger" onClick={() => setOpen(false)}>
            <SignOutIcon size={16} /> Sign out
          </Link>
        </div>
      )}
    </div>
  );
}
