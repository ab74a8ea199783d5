import { normaliseEmail } from '@fieldlink/domain/email';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { currentSubdomain } from '../../../lib/subdomain';
import { useEmailResetCodeMutation } from '../api/post-email-reset-code';
import { failureMessage, RESET_LINK_FAILED } from '../model/session-messages';
import { AuthLayout } from './auth-layout';

export function ForgotPasswordPage() {
  const request = useEmailResetCodeMutation();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const address = normaliseEmail(email);
    setError(null);
    request.mutate(
      { email: address, subdomain: currentSubdomain(), isLinkReset: true },
      {
        onSuccess: () => setSentTo(address),
        onError: (failure) => setError(failureMessage(failure, RESET_LINK_FAILED)),
      },
    );
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter the email you sign in with and we will send you a link to choose a new password."
    >
      {sentTo ? (
        <div className="auth__form">
          <InlineAlert tone="success">
            A reset link was sent to <strong>{sentTo}</strong>. It is valid for a limited time; check your spam folder
            if it does not arrive within a few minutes.
          </InlineAlert>
          <Link to="/signin" className="fl-button fl-button--secondary fl-button--block">
            Back to sign in
          </Link>
        </div>
      ) : (
        <form className="auth__form" onSubmit={onSubmit} noValidate>
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="you@company.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoFocus
          />
          {error && <InlineAlert tone="error">{error}</InlineAlert>}
          <Button type="submit" variant="primary" block busy={request.isPending} disabled={!email.trim()}>
            Send reset link
          </Button>
        </form>
      )}
      {!sentTo && (
        <p className="auth__alt">
          Remembered it? <Link to="/signin">Back to sign in</Link>
        </p>
      )}
    </AuthLayout>
  );
}
