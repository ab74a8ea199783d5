import { normaliseEmail } from '@fieldlink/domain/email';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { appStore, dispatchSession } from '../../../lib/app-store/app-store';
import { storeToken } from '../../../lib/session-token';
import { useStore } from '../../../lib/use-store';
import { useSigninMutation } from '../api/post-signin';
import {
  codeErrorMessage,
  enrolmentTokenOf,
  isSecondFactorRequired,
  signinErrorMessage,
} from '../model/session-messages';
import { AuthLayout } from './auth-layout';

export function SigninPage() {
  const navigate = useNavigate();
  const signin = useSigninMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // After a right password, a user with a second factor is asked for a code (issue 38).
  const [step, setStep] = useState<'password' | 'totp' | 'recovery'>('password');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  // The auth state's error (§3, §4): set by a refused sign-in, cleared by the next login.
  const authError = useStore(appStore, (s) => s.machine.auth.error);
  const error = signin.isPending ? null : authError;

  const onSignedIn = ({ jwt }: { jwt: string }) => {
    storeToken(jwt);
    void navigate('/loading', { replace: true });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    dispatchSession({ type: 'SIGN_IN' });
    signin.mutate(
      { email: normaliseEmail(email), password },
      {
        onSuccess: onSignedIn,
        onError: (failure) => {
          const enrolmentToken = enrolmentTokenOf(failure);
          if (enrolmentToken) {
            // The account requires a second factor this user lacks: set it up first, then the console.
            dispatchSession({ type: 'LOGOUT' });
            void navigate('/second-factor-setup', {
              replace: true,
              state: { enrolmentToken, email: normaliseEmail(email) },
            });
            return;
          }
          if (!isSecondFactorRequired(failure)) {
            dispatchSession({ type: 'AUTH_ERROR', error: signinErrorMessage(failure) });
            return;
          }
          // Not signed in yet: the session stays signed out, without an error, while the code is asked.
          dispatchSession({ type: 'LOGOUT' });
          setStep('totp');
        },
      },
    );
  };

  const onSubmitCode = (event: FormEvent) => {
    event.preventDefault();
    setCodeError(null);
    signin.mutate(
      { email: normaliseEmail(email), password, code },
      { onSuccess: onSignedIn, onError: (failure) => setCodeError(codeErrorMessage(failure)) },
    );
  };

  if (step !== 'password') {
    const recovery = step === 'recovery';
    return (
      <AuthLayout
        title="Two-factor authentication"
        subtitle={recovery ? 'Enter one of your recovery codes.' : 'Enter the code from your authenticator app.'}
      >
        <form className="auth__form" onSubmit={onSubmitCode} noValidate>
          <TextField
            key={step}
            label={recovery ? 'Recovery code' : 'Authentication code'}
            name="code"
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            autoCapitalize="none"
            spellCheck={false}
            placeholder={recovery ? 'xxxx-xxxx-xxxx-xxxx' : '123456'}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
          />
          {codeError && !signin.isPending && <InlineAlert tone="error">{codeError}</InlineAlert>}
          <Button type="submit" variant="primary" block busy={signin.isPending} disabled={!code.trim()}>
            {signin.isPending ? 'Checking…' : 'Verify'}
          </Button>
        </form>
        <p className="auth__alt">
          <button
            type="button"
            className="auth__link-button"
            onClick={() => {
              setStep(recovery ? 'totp' : 'recovery');
              setCode('');
              setCodeError(null);
            }}
          >
            {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
          </button>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in" subtitle="Welcome back. Sign in to see your devices.">
      <form className="auth__form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="you@company.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aside={
            <Link to="/forgot-password" className="auth__link-small">
              Forgot password?
            </Link>
          }
        />
        {error && <InlineAlert tone="error">{error}</InlineAlert>}
        <Button type="submit" variant="primary" block busy={signin.isPending} disabled={!email.trim() || !password}>
          {signin.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      <p className="auth__alt">Accounts are created by invitation. Ask your administrator for access.</p>
    </AuthLayout>
  );
}
