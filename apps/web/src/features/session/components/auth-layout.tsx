import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CLIENT_VERSION } from '@fieldlink/api/session';
import { BrandMark } from '../../../components/ui/brand-mark';
import { AlarmIcon, ReportsIcon, SignalIcon } from '../../../components/ui/icons';
import { useClientConfig } from '../../../lib/api/get-client-config';
import './session.css';

const HIGHLIGHTS = [
  { icon: SignalIcon, title: 'Live device values', text: 'Inputs, relays and setpoints stream in as they change.' },
  { icon: AlarmIcon, title: 'Alarms that reach you', text: 'Know the moment a tank, pump or controller needs you.' },
  { icon: ReportsIcon, title: 'Reports on schedule', text: 'History and trends, exported and mailed automatically.' },
];

/**
 * Frame of the session screens: a brand panel beside the form on wide screens, the brand above it on
 * phones. The brand panel takes the theme's top-bar colour, so a white-labelled host shows its brand.
 */
export interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  /** A status icon above the title, for the outcome screens. */
  icon?: ReactNode;
  children?: ReactNode;
}

export function AuthLayout({ title, subtitle, icon, children }: AuthLayoutProps) {
  const { productName } = useClientConfig();
  return (
    <div className="auth">
      <aside className="auth__brand" aria-hidden="true">
        <div className="auth__brand-top">
          <BrandMark size={34} />
          <span className="auth__brand-name">{productName}</span>
        </div>
        <div className="auth__pitch">
          <h2 className="auth__headline">Every device in the field, live on one screen.</h2>
          <ul className="auth__highlights">
            {HIGHLIGHTS.map(({ icon: Icon, title: heading, text }) => (
              <li key={heading}>
                <span className="auth__highlight-icon">
                  <Icon size={18} />
                </span>
                <span>
                  <strong>{heading}</strong>
                  <span className="auth__highlight-text">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <div className="auth__brand-foot">Remote monitoring for connected field devices</div>
      </aside>
      <main className="auth__main">
        <div className="auth__mobile-brand">
          <BrandMark size={30} />
          <span>{productName}</span>
        </div>
        <div className="auth__form-wrap">
          {icon && <div className="auth__status-icon">{icon}</div>}
          <h1 className="auth__title">{title}</h1>
          {subtitle && <p className="auth__subtitle">{subtitle}</p>}
          {children}
        </div>
        <footer className="auth__footer">
          <Link to="/privacy">Privacy</Link>
          <span aria-hidden="true">·</span>
          <span>
            {productName} {CLIENT_VERSION}
          </span>
        </footer>
      </main>
    </div>
  );
}
