import { normaliseEmail } from '@fieldlink/domain/email';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { MailIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { usePasswordResetMutation } from '../api/post-password-reset';
import { failureMessage, PASSWORD_UPDATE_FAILED } from '../model/session-messages';
import { AuthLayout } from './auth-layout';
import { NewPasswordField } from './new-password-field';

/** Opened from the mailed link `/reset-password?email=...&code=...`. */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = normaliseEmail(params.get('email') ?? '');
  const code = params.get('code') ?? '';
  const reset = usePasswordResetMutation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (!email || !code) {
    return (
      <AuthLayout title="Reset link incomplete">
        <div className="auth__form">
          <InlineAlert tone="warning">
            This link is missing its email or code. Open the link from the email again, or request a new one.
          </InlineAlert>
          <Link to="/forgot-password" className="fl-button fl-button--primary fl-button--block">
            Request a new link
          </Link>
        </div>
      </AuthLayout>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    reset.mutate(
      { email, code, password },
      {
        onSuccess: () => void navigate('/passwordChangedSuccessfully', { replace: true }),
        onError: (failure) => setError(failureMessage(failure, PASSWORD_UPDATE_FAILED)),
      },
    );
  };

  return (
    <AuthLayout title="Choose a new password" subtitle="You will use it the next time you sign in.">
      <form className="auth__form" onSubmit={onSubmit} noValidate>
        <div className="auth__readonly">
          <MailIcon size={17} />
          {email}
        </div>
        <NewPasswordField
          label="New password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
        {error && <InlineAlert tone="error">{error}</InlineAlert>}
        <Button type="submit" variant="primary" block busy={reset.isPending} disabled={!password}>
          Update password
        </Button>
      </form>
    </AuthLayout>
  );
}
