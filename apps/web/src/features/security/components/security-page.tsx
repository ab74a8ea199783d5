import { useEffect, useMemo, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import type { TotpEnrolmentAnswer } from '@fieldlink/api/mfa';
import { can, TOKEN_MANAGEMENT_REFUSAL } from '@fieldlink/domain/permissions';
import { Button } from '../../../components/ui/button';
import { CopyIcon, DownloadIcon, LockIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { TextField } from '../../../components/ui/text-field';
import { useAccount } from '../../../lib/api/get-account';
import { useClientConfig } from '../../../lib/api/get-client-config';
import { useSelf } from '../../../lib/api/get-self';
import { ApiError, serverMessageOr } from '../../../lib/api-client';
import { appStore, showToast } from '../../../lib/app-store/app-store';
import { useReaderClock } from '../../../lib/page-time-zone';
import { permissionSubject } from '../../../lib/session/permission-subject';
import { useStore } from '../../../lib/use-store';
import { useRevokeApiTokenMutation } from '../api/delete-api-token';
import { useSignOutOtherSessionsMutation } from '../api/delete-other-sessions';
import { useSignOutSessionMutation } from '../api/delete-session';
import { useApiTokens } from '../api/get-api-tokens';
import { useMfa } from '../api/get-mfa';
import { useSessions } from '../api/get-sessions';
import { useCreateApiTokenMutation } from '../api/post-api-token';
import { useTurnOffTotpMutation } from '../api/delete-totp';
import { useStartTotpMutation } from '../api/post-totp';
import { useConfirmTotpMutation } from '../api/post-totp-confirm';
import { groupedSecret, recoveryCodesFile } from '../model/totp-text';
import { PasskeysSection } from './passkeys-section';
import { PhoneSection } from './phone-section';
import { ApiTokens } from './api-tokens';
import { SessionList } from './session-list';
import './security.css';

const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';
const codeFailure = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status === 429 ? TOO_MANY : serverMessageOr(error, fallback);

/** The enrolment's QR code, drawn from the otpauth:// URL in this browser (the secret goes nowhere else). */
function QrCode({ url }: { url: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toDataURL(url, { margin: 1, width: 200, errorCorrectionLevel: 'M' }).then((data) => {
      if (current) setImage(data);
    });
    return () => {
      current = false;
    };
  }, [url]);
  return image ? (
    <img className="security-qr" src={image} width={200} height={200} alt="QR code for your authenticator app" />
  ) : (
    <div className="security-qr" aria-hidden="true" />
  );
}

function saveText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The recovery codes, shown this once, with copy and download. `email` names the user before there
 * is a session (a set-up the sign-in asked for); else it is the session's.
 */
export function RecoveryCodes({
  codes,
  onDone,
  email: givenEmail,
  doneLabel = 'I have saved them',
}: {
  codes: string[];
  onDone: () => void;
  email?: string;
  doneLabel?: string;
}) {
  const { productName } = useClientConfig();
  const sessionEmail = useStore(appStore, (s) => s.session.email) ?? '';
  const email = givenEmail ?? sessionEmail;
  const text = recoveryCodesFile(codes, productName, email);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      showToast('success', 'Recovery codes copied.');
    } catch {
      showToast('error', 'The codes could not be copied: select them and copy by hand.');
    }
  };
  return (
    <section className="fl-card security-card" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">Save your recovery codes</h2>
      <InlineAlert tone="warning">
        These codes are shown only now. Each signs you in once if your authenticator app is not at hand.
      </InlineAlert>
      <ol className="security-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="security-actions">
        <Button onClick={() => void copy()}>
          <CopyIcon size={14} /> Copy
        </Button>
        <Button onClick={() => saveText(text, `${productName.toLowerCase()}-recovery-codes.txt`)}>
          <DownloadIcon size={14} /> Download
        </Button>
        <Button variant="primary" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
    </section>
  );
}

/**
 * Setting up: the QR code and the secret as text, then the first code turns it on. With an
 * `enrolmentToken` (a set-up the sign-in asked for) the confirmation also answers the session.
 */
export function Enrolment({
  enrolment,
  onConfirmed,
  enrolmentToken,
}: {
  enrolment: TotpEnrolmentAnswer;
  onConfirmed: (codes: string[], jwt?: string) => void;
  enrolmentToken?: string;
}) {
  const [code, setCode] = useState('');
  const confirm = useConfirmTotpMutation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(
      { code, ...(enrolmentToken !== undefined && { enrolmentToken }) },
      { onSuccess: ({ recoveryCodes, jwt }) => onConfirmed(recoveryCodes, jwt) },
    );
  };
  return (
    <section className="fl-card security-card" aria-labelledby="enrol-title">
      <h2 id="enrol-title">Set up your authenticator app</h2>
      <ol className="security-steps">
        <li>
          Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="security-enrol">
        <QrCode url={enrolment.url} />
        <div className="security-secret">
          <span className="fl-muted">Can’t scan? Enter this key in the app:</span>
          <code data-testid="totp-secret">{groupedSecret(enrolment.secret)}</code>
        </div>
      </div>
      <form className="security-form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Code from the app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        {confirm.isError && !confirm.isPending && (
          <InlineAlert tone="error">{codeFailure(confirm.error, 'The code could not be checked.')}</InlineAlert>
        )}
        <Button type="submit" variant="primary" busy={confirm.isPending} disabled={!code.trim()}>
          Turn on
        </Button>
      </form>
    </section>
  );
}

/** Turning off needs a current code (or a recovery code): a borrowed session alone cannot. */
function TurnOff({ recoveryCodesLeft, required }: { recoveryCodesLeft: number; required: boolean }) {
  const [code, setCode] = useState('');
  const turnOff = useTurnOffTotpMutation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    turnOff.mutate(
      { code },
      {
        onSuccess: () => {
          setCode('');
          showToast('success', 'Two-factor authentication is off.');
        },
      },
    );
  };
  return (
    <section className="fl-card security-card" aria-labelledby="totp-on-title">
      <h2 id="totp-on-title">Two-factor authentication is on</h2>
      <p>Signing in asks for a code from your authenticator app. {recoveryCodesLeft} of 10 recovery codes are left.</p>
      {recoveryCodesLeft <= 3 && (
        <InlineAlert tone="warning">
          Few recovery codes are left. Turn two-factor authentication off and on again for ten new ones.
        </InlineAlert>
      )}
      {required ? (
        <InlineAlert tone="info">
          Your account requires a second factor, so it cannot be turned off. Ask an account administrator.
        </InlineAlert>
      ) : (
        <form className="security-form" onSubmit={onSubmit} noValidate>
          <TextField
            label="Code from the app, or a recovery code"
            name="code"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          {turnOff.isError && !turnOff.isPending && (
            <InlineAlert tone="error">{codeFailure(turnOff.error, 'The code could not be checked.')}</InlineAlert>
          )}
          <Button type="submit" variant="danger" busy={turnOff.isPending} disabled={!code.trim()}>
            Turn off
          </Button>
        </form>
      )}
    </section>
  );
}

/**
 * Whether this sign-in may manage its own credentials (sessions, API tokens): the domain's
 * `manageOwnCredentials`; null until the user is read.
 */
function useManagesOwnCredentials(): boolean | null {
  const self = useSelf().data;
  const accounts = useAccount().data?.accounts;
  return useMemo(
    () => (self ? can(permissionSubject(self, accounts ?? []), 'manageOwnCredentials') : null),
    [self, accounts],
  );
}

/** Signed-in sessions (issue 38 item 4): where the user is signed in, each other one signed out at will. */
function SessionsSection({ allowed }: { allowed: boolean }) {
  const sessions = useSessions(allowed);
  const clock = useReaderClock();
  const signOut = useSignOutSessionMutation();
  const signOutOthers = useSignOutOtherSessionsMutation();
  const failure = signOut.error ?? signOutOthers.error;
  let body;
  if (!allowed) body = <RefusalNote reason={TOKEN_MANAGEMENT_REFUSAL} />;
  else if (sessions.isPending) body = null;
  else if (sessions.isError)
    body = (
      <InlineAlert tone="error">{serverMessageOr(sessions.error, 'Your sessions could not be read.')}</InlineAlert>
    );
  else
    body = (
      <SessionList
        sessions={sessions.data.sessions}
        clock={clock}
        busy={signOut.isPending || signOutOthers.isPending}
        onSignOut={(id) => signOut.mutate(id, { onSuccess: () => showToast('success', 'The session is signed out.') })}
        onSignOutOthers={() =>
          signOutOthers.mutate(undefined, {
            onSuccess: ({ ended }) =>
              showToast(
                'success',
                ended === 1 ? 'One other session is signed out.' : `${ended} other sessions are signed out.`,
              ),
          })
        }
      />
    );
  return (
    <section className="fl-card security-card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Signed-in sessions</h2>
      <p className="fl-muted">
        Where you are signed in. Sign out a browser you do not recognise, then change your password.
      </p>
      {failure && (
        <InlineAlert tone="error">{serverMessageOr(failure, 'The session could not be signed out.')}</InlineAlert>
      )}
      {body}
    </section>
  );
}

/** Personal API tokens (issue 38 item 3): made, shown once, listed and revoked. */
function ApiTokensSection({ allowed }: { allowed: boolean }) {
  const tokens = useApiTokens(allowed);
  const clock = useReaderClock();
  const create = useCreateApiTokenMutation();
  const revoke = useRevokeApiTokenMutation();
  let body;
  if (!allowed) body = <RefusalNote reason={TOKEN_MANAGEMENT_REFUSAL} />;
  else if (tokens.isPending) body = null;
  else if (tokens.isError)
    body = (
      <InlineAlert tone="error">{serverMessageOr(tokens.error, 'Your API tokens could not be read.')}</InlineAlert>
    );
  else
    body = (
      <ApiTokens
        tokens={tokens.data.tokens}
        clock={clock}
        now={Date.now()}
        onCreate={(request) => create.mutateAsync(request)}
        onRevoke={(id) => revoke.mutate(id, { onSuccess: () => showToast('success', 'The API token is revoked.') })}
      />
    );
  return (
    <section className="fl-card security-card" aria-labelledby="api-tokens-title">
      <h2 id="api-tokens-title">API tokens</h2>
      <p className="fl-muted">
        Personal tokens for scripts and integrations, sent as <code>Authorization: Bearer</code>. A token can do at most
        what you can, and stops working when you lose access.
      </p>
      {revoke.isError && !revoke.isPending && (
        <InlineAlert tone="error">{serverMessageOr(revoke.error, 'The token could not be revoked.')}</InlineAlert>
      )}
      {body}
    </section>
  );
}

/** Account menu → Security: two-factor authentication, signed-in sessions and API tokens (issue 38). */
export function SecurityPage() {
  const { sms } = useClientConfig();
  const mfa = useMfa();
  const start = useStartTotpMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolmentAnswer | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  let body;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  } else if (mfa.isPending) {
    body = null;
  } else if (mfa.isError) {
    body = (
      <InlineAlert tone="error">{serverMessageOr(mfa.error, 'Your security settings could not be read.')}</InlineAlert>
    );
  } else if (mfa.data.totp) {
    body = <TurnOff recoveryCodesLeft={mfa.data.recoveryCodesLeft} required={mfa.data.required} />;
  } else if (enrolment) {
    body = (
      <Enrolment
        enrolment={enrolment}
        onConfirmed={(codes) => {
          setEnrolment(null);
          setRecoveryCodes(codes);
        }}
      />
    );
  } else {
    body = (
      <section className="fl-card security-card" aria-labelledby="totp-off-title">
        <h2 id="totp-off-title">Two-factor authentication is off</h2>
        <p>
          Add a second step to signing in: a code from an authenticator app on your phone, so a stolen password alone
          does not let anyone in.
        </p>
        {start.isError && !start.isPending && (
          <InlineAlert tone="error">{serverMessageOr(start.error, 'The set-up could not start.')}</InlineAlert>
        )}
        <div className="security-actions">
          <Button
            variant="primary"
            busy={start.isPending}
            onClick={() => start.mutate(undefined, { onSuccess: setEnrolment })}
          >
            <LockIcon size={14} /> Set up an authenticator app
          </Button>
        </div>
      </section>
    );
  }

  const allowed = useManagesOwnCredentials();
  return (
    <div className="fl-page security-page">
      <PageHeader
        title="Security"
        summary={
          sms
            ? 'Two-factor authentication, signed-in sessions, API tokens and SMS alerts'
            : 'Two-factor authentication, signed-in sessions and API tokens'
        }
      />
      {body}
      {allowed !== null && (
        <>
          <PasskeysSection allowed={allowed} />
          <SessionsSection allowed={allowed} />
          <ApiTokensSection allowed={allowed} />
        </>
      )}
      {sms && <PhoneSection />}
    </div>
  );
}
