import { useEffect, useState, type ReactNode } from 'react';
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
import { readToken, tokenUserId } from '../../../lib/session-token';
import { ApiError } from '../../../lib/api-client';
import { useNow } from '../../../lib/clock';
import { readLastValues, recordSignedInUserValues } from '../../../lib/offline/last-values';
import type { LastValuesRecord } from '../../../lib/offline/last-values-storage';
import { OFFLINE_RETRY_INTERVAL_MS } from '@fieldlink/domain/offline-values';
import { endSession } from '../../../lib/session/end-session';
import { postSignout } from '../api/post-signout';
import { navigationSubject, permissionSubject, variantAccount } from '../../../lib/session/permission-subject';
import { currentSubdomain } from '../../../lib/subdomain';
import { readLastDevice } from '../../../lib/last-device';
import { routeAfterLoading, summariseSession } from '../model/after-loading-route';
import { CONNECTION_FAILED } from '../model/session-messages';
import { AuthLayout } from './auth-layout';
import { OfflineScreen } from './offline-screen';
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

export interface LoadingPageProps {
  /** Loads the code of the page at a path (the router's, supplied by the app); resolves even if it fails. */
  loadPageCode?: (path: string) => Promise<void>;
}

/**
 * `/loading`: reads the user and the account, decides where to go (specification §2), opens the
 * real-time connection. A failure reads "Error during connection." and signs out, except when the
 * server could not be reached at all (issue 39 item 1): then the session is kept, the offline screen
 * shows the user's last values, and the console tries again (every 15 s, at once when the browser is
 * back online or on "Retry now") and goes on by itself once the server answers.
 */
export function LoadingPage({ loadPageCode }: LoadingPageProps = {}) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const from = (location.state as { from?: string } | null)?.from ?? null;
  const [attempt, setAttempt] = useState(0);
  const [offlineSince, setOfflineSince] = useState<number | null>(null);
  const [retrying, setRetrying] = useState(false);

  useEffect(() => {
    const token = readToken();
    if (!token) {
      void navigate('/', { replace: true });
      return;
    }
    let cancelled = false;
    setRetrying(true);
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
        const clock = { timeZone: self.timeZone, hourCycle: self.hourCycle, dateOrder: self.dateOrder };
        setSession({
          email: self.email,
          displayName: displayName || null,
          ...summary,
          appType: navigationSubject(self, accounts, subdomain).appType,
          account: variantAccount(self, accounts),
          clock,
        });
        setRememberedPath(null);
        dispatchSession({ type: 'LOGIN' });
        recordSignedInUserValues(self.id, clock);
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
        // The page opens once its code is here, so it shows at once rather than after a fallback. The
        // real-time client may still be loading (a demo's simulation worker takes a while): the page's
        // watches wait for its first socket.
        void (loadPageCode?.(target) ?? Promise.resolve()).then(() => {
          if (!cancelled) void navigate(target, { replace: true });
        });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (isServerUnreachable(error)) {
          setRetrying(false);
          setOfflineSince((since) => since ?? Date.now());
          return;
        }
        showToast('error', CONNECTION_FAILED);
        endSession();
        void navigate('/signin', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [from, navigate, queryClient, attempt, loadPageCode]);

  const offline = offlineSince !== null;
  useEffect(() => {
    if (!offline) return;
    const retry = () => setAttempt((count) => count + 1);
    const timer = setInterval(retry, OFFLINE_RETRY_INTERVAL_MS);
    window.addEventListener('online', retry);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', retry);
    };
  }, [offline]);

  if (offlineSince !== null)
    return <OfflineStart since={offlineSince} retrying={retrying} onRetry={() => setAttempt((count) => count + 1)} />;
  return <Splash title="Connecting to your devices" text="Reading your account…" />;
}

/** A call that got no answer at all: the browser is offline or the server is out of reach. */
function isServerUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/** The offline screen with the signed-in user's last values, read once from this browser. */
function OfflineStart({ since, retrying, onRetry }: { since: number; retrying: boolean; onRetry: () => void }) {
  const { productName } = useClientConfig();
  const now = useNow();
  const [kept, setKept] = useState<LastValuesRecord | null>(null);
  useEffect(() => {
    const userId = tokenUserId();
    if (!userId) return;
    let cancelled = false;
    void readLastValues(userId).then((record) => {
      if (!cancelled) setKept(record);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <OfflineScreen
      productName={productName}
      since={since}
      kept={kept}
      now={now}
      retrying={retrying}
      onRetry={onRetry}
    />
  );
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
