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
import { signinErrorMessage } from '../model/session-messages';
import { AuthLayout } from './auth-layout';

export function SigninPage() {
  const navigate = useNavigate();
  const signin = useSigninMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The auth state's error (§3, §4): set by a refused sign-in, cleared by the next login.
  const authError = useStore(appStore, (s) => s.machine.auth.error);
  const error = signin.isPending ? null : authError;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    dispatchSession({ type: 'SIGN_IN' });
    signin.mutate(
      { email: normaliseEmail(email), password },
      {
        onSuccess: ({ jwt }) => {
          storeToken(jwt);
          void navigate('/loading', { replace: true });
        },
        onError: (failure) => dispatchSession({ type: 'AUTH_ERROR', error: signinErrorMessage(failure) }),
      },
    );
  };

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
