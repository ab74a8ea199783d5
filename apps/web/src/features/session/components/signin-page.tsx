import { normaliseEmail } from '@fieldlink/domain/email';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { appStore, dispatchSession } from '../../../lib/app-store/app-store';
import { storeToken } from '../../../lib/session-token';
import { useStore } from '../../../lib/use-store';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useSigninMutation } from '../api/post-signin';
import { passkeyAnswer, useSigninPasskeyMutation } from '../api/post-signin-passkey';
import {
  codeErrorMessage,
  enrolmentTokenOf,
  isSecondFactorRequired,
  passkeyErrorMessage,
  secondFactorOfferOf,
  signinErrorMessage,
  type SecondFactorOffer,
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
  // What the second step offers: the app's code, a passkey, or both (issue 38 item 2).
  const [offer, setOffer] = useState<SecondFactorOffer>({ totp: true, passkeyOptions: null });
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const signinPasskey = useSigninPasskeyMutation();
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const passkeys = browserSupportsWebAuthn();
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
          setOffer(secondFactorOfferOf(failure));
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

  // The second step answered with a passkey: the password again, with the passkey's answer.
  const onUsePasskey = async () => {
    const options = offer.passkeyOptions;
    if (!options) return;
    setCodeError(null);
    setPasskeyBusy(true);
    try {
      const passkey = await passkeyAnswer(options);
      signin.mutate(
        { email: normaliseEmail(email), password, passkey },
        {
          onSuccess: onSignedIn,
          onError: (failure) => {
            // A refusal carries a fresh challenge: the next try uses it.
            if (isSecondFactorRequired(failure)) setOffer(secondFactorOfferOf(failure));
            setCodeError(passkeyErrorMessage(failure));
          },
        },
      );
    } catch (failure) {
      setCodeError(passkeyErrorMessage(failure));
    } finally {
      setPasskeyBusy(false);
    }
  };

  // Sign in with a passkey and no e-mail or password.
  const onSigninWithPasskey = () => {
    setPasskeyError(null);
    signinPasskey.mutate(undefined, {
      onSuccess: onSignedIn,
      onError: (failure) => setPasskeyError(passkeyErrorMessage(failure)),
    });
  };

  if (step !== 'password') {
    const recovery = step === 'recovery';
    const passkeyOffered = offer.passkeyOptions !== null && passkeys;
    const usePasskey = passkeyOffered && (
      <Button
        variant={offer.totp ? 'secondary' : 'primary'}
        block
        busy={passkeyBusy || (signin.isPending && !offer.totp)}
        onClick={() => void onUsePasskey()}
      >
        Use your passkey
      </Button>
    );
    if (!offer.totp) {
      return (
        <AuthLayout title="Two-factor authentication" subtitle="Use your passkey to finish signing in.">
          <div className="auth__form">
            {codeError && !signin.isPending && !passkeyBusy && <InlineAlert tone="error">{codeError}</InlineAlert>}
            {usePasskey || <InlineAlert tone="error">This browser cannot use passkeys.</InlineAlert>}
          </div>
        </AuthLayout>
      );
    }
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
          {codeError && !signin.isPending && !passkeyBusy && <InlineAlert tone="error">{codeError}</InlineAlert>}
          <Button type="submit" variant="primary" block busy={signin.isPending} disabled={!code.trim()}>
            {signin.isPending ? 'Checking…' : 'Verify'}
          </Button>
          {usePasskey}
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
      {passkeys && (
        <div className="auth__form auth__passkey">
          <p className="auth__divider">
            <span>or</span>
          </p>
          {passkeyError && !signinPasskey.isPending && <InlineAlert tone="error">{passkeyError}</InlineAlert>}
          <Button block busy={signinPasskey.isPending} onClick={onSigninWithPasskey}>
            Sign in with a passkey
          </Button>
        </div>
      )}
      <p className="auth__alt">Accounts are created by invitation. Ask your administrator for access.</p>
    </AuthLayout>
  );
}
