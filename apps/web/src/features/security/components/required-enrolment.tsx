import { useEffect, useRef, useState } from 'react';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import type { TotpEnrolmentAnswer } from '@fieldlink/api/mfa';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { useStartTotpMutation } from '../api/post-totp';
import { AddPasskeyForm } from './passkeys-section';
import { Enrolment, RecoveryCodes } from './security-page';
import './security.css';

interface SetupProps {
  enrolmentToken: string;
  email: string;
  onSignedIn: (jwt: string) => void;
}

/** The authenticator app: the QR code and first code, then the recovery codes, then the session. */
function AppEnrolment({ enrolmentToken, email, onSignedIn }: SetupProps) {
  const start = useStartTotpMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolmentAnswer | null>(null);
  const [done, setDone] = useState<{ codes: string[]; jwt: string } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Once: a second start would replace the secret the QR code shows.
    if (started.current) return;
    started.current = true;
    start.mutate(enrolmentToken, { onSuccess: setEnrolment });
  }, [start, enrolmentToken]);

  if (done) {
    return (
      <RecoveryCodes
        codes={done.codes}
        email={email}
        doneLabel="I have saved them, continue"
        onDone={() => onSignedIn(done.jwt)}
      />
    );
  }
  if (start.isError) {
    return (
      <InlineAlert tone="error">
        {serverMessageOr(start.error, 'The set-up could not start.')} Sign in again to start over.
      </InlineAlert>
    );
  }
  if (!enrolment) return <Spinner size={20} />;
  return (
    <Enrolment
      enrolment={enrolment}
      enrolmentToken={enrolmentToken}
      onConfirmed={(codes, jwt) => {
        if (jwt) setDone({ codes, jwt });
      }}
    />
  );
}

/**
 * The set-up a sign-in asks for when the user's account requires a second factor they do not have
 * (issue 38 item 2), with the enrol-only token: a passkey or an authenticator app, as the security
 * page offers both. A browser without passkeys goes straight to the app.
 */
export function RequiredEnrolment(props: SetupProps) {
  const passkeys = browserSupportsWebAuthn();
  const [choice, setChoice] = useState<'app' | 'passkey' | null>(passkeys ? null : 'app');
  let body;
  if (choice === 'app') body = <AppEnrolment {...props} />;
  else if (choice === 'passkey')
    body = (
      <section className="fl-card security-card" aria-labelledby="enrol-passkey-title">
        <h2 id="enrol-passkey-title">Set up a passkey</h2>
        <p className="fl-muted">Name it after where it lives, then unlock it when the browser asks.</p>
        <AddPasskeyForm
          enrolmentToken={props.enrolmentToken}
          onAdded={({ jwt }) => {
            if (jwt) props.onSignedIn(jwt);
          }}
          onCancel={() => setChoice(null)}
        />
      </section>
    );
  else
    body = (
      <div className="security-choices" role="group" aria-label="Choose a second factor">
        <Button variant="primary" onClick={() => setChoice('passkey')}>
          Use a passkey
        </Button>
        <p className="fl-muted">Your fingerprint, face or screen lock, or a security key.</p>
        <Button onClick={() => setChoice('app')}>Use an authenticator app</Button>
        <p className="fl-muted">A 6-digit code from an app on your phone.</p>
      </div>
    );
  return <div className="security-required-enrolment">{body}</div>;
}
