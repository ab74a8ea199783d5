import { normaliseEmail } from '@fieldlink/domain/email';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { MailIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { storeToken } from '../../../lib/session-token';
import { useSignupMutation } from '../api/post-signup';
import { failureMessage, SIGNUP_FAILED } from '../model/session-messages';
import { AuthLayout } from './auth-layout';
import { NewPasswordField } from './new-password-field';

/** Opened from an invitation `/signup?code=...&email=...`. */
export function SignupPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = normaliseEmail(params.get('email') ?? '');
  const code = params.get('code') ?? '';
  const signup = useSignupMutation();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (!email || !code) {
    return (
      <AuthLayout title="Invitation incomplete">
        <div className="auth__form">
          <InlineAlert tone="warning">
            This invitation link is missing its email or code. Open the link from your invitation email again, or ask
            your administrator to send a new invitation.
          </InlineAlert>
          <Link to="/signin" className="fl-button fl-button--secondary fl-button--block">
            Go to sign in
          </Link>
        </div>
      </AuthLayout>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    signup.mutate(
      { email, code, password, firstName: firstName.trim(), lastName: lastName.trim() },
      {
        onSuccess: ({ jwt }) => {
          storeToken(jwt);
          void navigate('/signedUpSuccessfully', { replace: true });
        },
        onError: (failure) => setError(failureMessage(failure, SIGNUP_FAILED)),
      },
    );
  };

  return (
    <AuthLayout title="Create your account" subtitle="You have been invited. Set up your name and password.">
      <form className="auth__form" onSubmit={onSubmit} noValidate>
        <div className="auth__readonly">
          <MailIcon size={17} />
          {email}
        </div>
        <div className="auth__form-row">
          <TextField
            label="First name"
            autoComplete="given-name"
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
            autoFocus
          />
          <TextField
            label="Last name"
            autoComplete="family-name"
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
          />
        </div>
        <NewPasswordField label="Password" value={password} onChange={(e) => setPassword(e.target.value)} />
        {error && <InlineAlert tone="error">{error}</InlineAlert>}
        <Button
          type="submit"
          variant="primary"
          block
          busy={signup.isPending}
          disabled={!firstName.trim() || !lastName.trim() || !password}
        >
          Create account
        </Button>
      </form>
      <p className="auth__alt">
        Already have an account? <Link to="/signin">Sign in</Link>
      </p>
    </AuthLayout>
  );
}
