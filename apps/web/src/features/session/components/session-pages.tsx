import { useEffect, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { turnBrowserPushOff } from '../../../lib/browser-push';
import { mergeSignedInUser } from '@fieldlink/domain/user-rules';
import { BrandMark } from '../../../components/ui/brand-mark';
import { CheckCircleIcon, LockIcon, SparkIcon } from '../../../components/ui/icons';
import { accountQuery } from '../../../lib/api/get-account';
import { useClientConfig } from '../../../lib/api/get-client-config';
import { selfQuery } from '../../../lib/api/get-self';
import { themeNamed } from '@fieldlink/domain/app-variant';
import {
  appStore,
  chooseStoredTheme,
  dispatchSession,
  setRememberedPath,
  setSession,
  showToast,
} from '../../../lib/app-store/app-store';
import { startRealtime } from '../../../lib/realtime/realtime-connection';
import { simulateDemoDevices } from '../../../lib/demo/demo-session';
import { readToken } from '../../../lib/session-token';
import { endSession } from '../../../lib/session/end-session';
import { postSignout } from '../api/post-signout';
import { navigationSubject, permissionSubject, variantAccount } from '../../../lib/session/permission-subject';
import { currentSubdomain } from '../../../lib/subdomain';
import { readLastDevice } from '../../../lib/last-device';
import { routeAfterLoading, summariseSession } from '../model/after-loading-route';
import { CONNECTION_FAILED } from '../model/session-messages';
import { AuthLayout } from './auth-layout';
import './session.css';

function Splash({ title, text, children }: { title: string; text?: string; children?: ReactNode }) {
  return (
    <main className="session-splash" {...(children ? {} : { role: 'status', 'aria-live': 'polite' as const })}>
      <div className="session-splash__mark">
        <BrandMark size={48} />
      </div>
      <div className="session-splash__title">{title}</div>
      {text && <div className="session-splash__text">{text}</div>}
      {children ?? <div className="session-splash__bar" aria-hidden="true" />}
    </main>
  );
}

/**
 * `/`: the loading-style landing page (§2). A visitor without a token lands here from any page that
 * needs a sign-in and is offered the sign-in and the demo; with a token it goes on to /loading.
 */
export function LandingPage() {
  const { productName } = useClientConfig();
  if (readToken()) return <Navigate to="/loading" replace />;
  return (
    <Splash title={productName} text="Every device in the field, live on one screen.">
      <nav className="session-splash__actions" aria-label={productName}>
        <Link to="/signin" className="fl-button fl-button--primary">
          Sign in
        </Link>
        <Link to="/demo" className="fl-button fl-button--secondary">
          Try the demo
        </Link>
      </nav>
      <Link to="/privacy" className="session-splash__footer">
        Privacy
      </Link>
    </Splash>
  );
}

/**
 * `/loading`: reads the user and the account, decides where to go (specification §2), opens the
 * real-time connection. Any failure reads "Error during connection." and signs out.
 */
export function LoadingPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const from = (location.state as { from?: string } | null)?.from ?? null;

  useEffect(() => {
    const token = readToken();
    if (!token) {
      void navigate('/', { replace: true });
      return;
    }
    let cancelled = false;
    dispatchSession({ type: 'READ_ACCOUNT' });
    Promise.all([queryClient.fetchQuery(selfQuery()), queryClient.fetchQuery(accountQuery())])
      .then(([self, { accounts }]) => {
        if (cancelled) return;
        const remembered = from ?? appStore.getState().rememberedPath;
        const subdomain = currentSubdomain();
        const target = routeAfterLoading(self, accounts, remembered, subdomain, readLastDevice(self.email));
        const summary = summariseSession(permissionSubject(self, accounts));
        // The user as the account tree knows them fills what /self lacks (§3).
        const me = mergeSignedInUser(
          self,
          accounts.flatMap((account) => account.rootGroup.fullUsers),
        );
        const displayName = `${me.firstName} ${me.lastName}`.trim();
        // The theme the user chose on another browser follows them here (kept under the local key).
        const userTheme = themeNamed(self.theme);
        if (userTheme) chooseStoredTheme(userTheme);
        setSession({
          email: self.email,
          displayName: displayName || null,
          ...summary,
          appType: navigationSubject(self, accounts, subdomain).appType,
          account: variantAccount(self, accounts),
          clock: { timeZone: self.timeZone, hourCycle: self.hourCycle, dateOrder: self.dateOrder },
        });
        setRememberedPath(null);
        dispatchSession({ type: 'LOGIN' });
        // `_DEMO` devices of the account are simulated here, before the real-time socket opens.
        simulateDemoDevices(accounts);
        void startRealtime({
          token,
          canViewDash: summary.canViewDash,
          onUnauthorized: () => {
            endSession();
            showToast('warning', 'Your session has ended. Please sign in again.');
          },
        });
        void navigate(target, { replace: true });
      })
      .catch(() => {
        if (cancelled) return;
        showToast('error', CONNECTION_FAILED);
        endSession();
        void navigate('/signin', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [from, navigate, queryClient]);

  return <Splash title="Connecting to your devices" text="Reading your account…" />;
}

/** `/signout`: revokes the token, forgets the session, back to sign-in. */
export function SignoutPage() {
  const navigate = useNavigate();
  useEffect(() => {
    let cancelled = false;
    dispatchSession({ type: 'SIGN_OUT' });
    // This browser stops receiving the user's alarm notifications first, while the token still works:
    // the next person at a shared screen must not see them.
    const revoke = readToken()
      ? turnBrowserPushOff()
          .catch(() => undefined)
          .then(() => postSignout())
          .catch(() => undefined)
      : Promise.resolve();
    void revoke.then(() => {
      if (cancelled) return;
      endSession();
      void navigate('/signin', { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [navigate]);
  return <Splash title="Signing out…" />;
}

/** A page that says one thing and offers one way on: access denied, password changed, signed up. */
function AuthNotice({
  icon,
  title,
  subtitle,
  to,
  action,
}: {
  icon: ReactNode;
  title: string;
  subtitle: string;
  to: string;
  action: string;
}) {
  return (
    <AuthLayout icon={icon} title={title} subtitle={subtitle}>
      <div className="auth__form">
        <Link to={to} className="fl-button fl-button--primary fl-button--block">
          {action}
        </Link>
      </div>
    </AuthLayout>
  );
}

/** `/dashAccessDeny`: signed in, but no permission that opens the console. */
export function DashAccessDenyPage() {
  return (
    <AuthNotice
      icon={<LockIcon size={24} />}
      title="No dashboard access"
      subtitle="You are signed in, but your user has no permission to view dashboards or accounts. Ask an administrator of your account to grant you access, then sign in again."
      to="/signout"
      action="Sign out"
    />
  );
}

export function PasswordChangedPage() {
  return (
    <AuthNotice
      icon={<CheckCircleIcon size={24} />}
      title="Password changed"
      subtitle="Your password was updated. Sign in with your new password; sessions open elsewhere were signed out."
      to="/signin"
      action="Sign in"
    />
  );
}

export function SignedUpPage() {
  return (
    <AuthNotice
      icon={<SparkIcon size={24} />}
      title="Welcome aboard"
      subtitle="Your account is ready. Watch your devices live, receive alarms and run reports."
      to="/loading"
      action="Open the console"
    />
  );
}
