import { useEffect, useRef, useState } from 'react';
import type { TotpEnrolmentAnswer } from '@fieldlink/api/mfa';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { useStartTotpMutation } from '../api/post-totp';
import { Enrolment, RecoveryCodes } from './security-page';
import './security.css';

/**
 * The set-up a sign-in asks for when the user's account requires a second factor they do not have
 * (issue 38 item 2): with the enrol-only token, the QR code and first code, then the recovery codes,
 * then the session the confirmation answered.
 */
export function RequiredEnrolment({
  enrolmentToken,
  email,
  onSignedIn,
}: {
  enrolmentToken: string;
  email: string;
  onSignedIn: (jwt: string) => void;
}) {
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
      <div className="security-required-enrolment">
        <RecoveryCodes
          codes={done.codes}
          email={email}
          doneLabel="I have saved them, continue"
          onDone={() => onSignedIn(done.jwt)}
        />
      </div>
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
    <div className="security-required-enrolment">
      <Enrolment
        enrolment={enrolment}
        enrolmentToken={enrolmentToken}
        onConfirmed={(codes, jwt) => {
          if (jwt) setDone({ codes, jwt });
        }}
      />
    </div>
  );
}
