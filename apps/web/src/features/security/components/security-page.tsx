import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import type { TotpEnrolmentAnswer } from '@fieldlink/api/mfa';
import { Button } from '../../../components/ui/button';
import { CopyIcon, DownloadIcon, LockIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { TextField } from '../../../components/ui/text-field';
import { useClientConfig } from '../../../lib/api/get-client-config';
import { ApiError, serverMessageOr } from '../../../lib/api-client';
import { appStore, showToast } from '../../../lib/app-store/app-store';
import { useStore } from '../../../lib/use-store';
import { useMfa } from '../api/get-mfa';
import { useTurnOffTotpMutation } from '../api/delete-totp';
import { useStartTotpMutation } from '../api/post-totp';
import { useConfirmTotpMutation } from '../api/post-totp-confirm';
import { groupedSecret, recoveryCodesFile } from '../model/totp-text';
import { PhoneSection } from './phone-section';
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

/** The recovery codes, shown this once, with copy and download. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { productName } = useClientConfig();
  const email = useStore(appStore, (s) => s.session.email) ?? '';
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
          I have saved them
        </Button>
      </div>
    </section>
  );
}

/** Setting up: the QR code and the secret as text, then the first code turns it on. */
function Enrolment({
  enrolment,
  onConfirmed,
}: {
  enrolment: TotpEnrolmentAnswer;
  onConfirmed: (codes: string[]) => void;
}) {
  const [code, setCode] = useState('');
  const confirm = useConfirmTotpMutation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate({ code }, { onSuccess: ({ recoveryCodes }) => onConfirmed(recoveryCodes) });
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
function TurnOff({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
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
    </section>
  );
}

/** Account menu → Security: the user's two-factor authentication (issue 38 item 2). */
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
    body = <TurnOff recoveryCodesLeft={mfa.data.recoveryCodesLeft} />;
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

  return (
    <div className="fl-page security-page">
      <PageHeader
        title="Security"
        summary={sms ? 'Two-factor authentication and SMS alerts' : 'Two-factor authentication'}
      />
      {body}
      {sms && <PhoneSection />}
    </div>
  );
}
