import { useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { TOKEN_MANAGEMENT_REFUSAL } from '@fieldlink/domain/permissions';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { PASSKEY_SETTINGS } from '@fieldlink/domain/mfa';
import type { PasskeyAddAnswer } from '@fieldlink/api/passkeys';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { TextField } from '../../../components/ui/text-field';
import { serverMessageOr } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useReaderClock } from '../../../lib/page-time-zone';
import { useRemovePasskeyMutation } from '../api/delete-passkey';
import { usePasskeys } from '../api/get-passkeys';
import { useAddPasskeyMutation } from '../api/post-passkey';
import { PASSKEY_CANCELLED, isCeremonyFailure } from '../../../lib/passkey-ceremony';
import { passkeyPlaceOf } from '../model/passkey-text';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SecurityTableHead } from './security-table-head';

/** The text of a failed attempt to add a passkey. */
const addFailure = (error: unknown) =>
  isCeremonyFailure(error) ? PASSKEY_CANCELLED : serverMessageOr(error, 'The passkey could not be added.');

/**
 * The name form and the registration ceremony of a new passkey; with `enrolmentToken`, the set-up a
 * sign-in asked for (the answer then carries the session).
 */
export function AddPasskeyForm({
  enrolmentToken,
  onAdded,
  onCancel,
}: {
  enrolmentToken?: string;
  onAdded: (answer: PasskeyAddAnswer) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const add = useAddPasskeyMutation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ name, enrolmentToken }, { onSuccess: onAdded });
  };
  return (
    <form className="security-form" onSubmit={onSubmit} noValidate aria-label="Add a passkey">
      <TextField
        label="Passkey name"
        name="passkey-name"
        placeholder="Work laptop"
        maxLength={PASSKEY_SETTINGS.nameMaxLength}
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoFocus
      />
      {add.isError && !add.isPending && <InlineAlert tone="error">{addFailure(add.error)}</InlineAlert>}
      <div className="security-actions">
        <Button type="submit" variant="primary" busy={add.isPending} disabled={!name.trim()}>
          Continue
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

/**
 * Passkeys (issue 38 item 2): listed with where they live, when added and last used; added with a
 * name through the browser's own prompt; each removed after asking.
 */
export function PasskeysSection({ allowed }: { allowed: boolean }) {
  const passkeys = usePasskeys(allowed);
  const clock = useReaderClock();
  const remove = useRemovePasskeyMutation();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const supported = browserSupportsWebAuthn();
  let body;
  if (!allowed) body = <RefusalNote reason={TOKEN_MANAGEMENT_REFUSAL} />;
  else if (passkeys.isPending) body = null;
  else if (passkeys.isError)
    body = (
      <InlineAlert tone="error">{serverMessageOr(passkeys.error, 'Your passkeys could not be read.')}</InlineAlert>
    );
  else
    body = (
      <>
        {passkeys.data.passkeys.length === 0 ? (
          <p className="fl-muted">No passkeys yet.</p>
        ) : (
          <div className="fl-table-frame">
            <table className="fl-table security-table" aria-label="Passkeys">
              <SecurityTableHead columns={['Name', 'Kept on', 'Added', 'Last used']} />
              <tbody>
                {passkeys.data.passkeys.map((passkey) => (
                  <tr key={passkey.id} data-testid="passkey-row">
                    <td data-label="Name">
                      <span className="security-name">{passkey.name}</span>
                    </td>
                    <td data-label="Kept on">
                      <span>{passkeyPlaceOf(passkey.transports)}</span>
                    </td>
                    <td data-label="Added">
                      <span>{formatDateTime(passkey.createdAt, clock)}</span>
                    </td>
                    <td data-label="Last used">
                      <span>{passkey.lastUsedAt === null ? 'Never' : formatDateTime(passkey.lastUsedAt, clock)}</span>
                    </td>
                    <td className="security-table__action">
                      <Button
                        size="sm"
                        disabled={remove.isPending}
                        aria-label={`Remove passkey ${passkey.name}`}
                        onClick={() => setRemoving({ id: passkey.id, name: passkey.name })}
                      >
                        Remove
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!supported ? (
          <InlineAlert tone="info">This browser cannot use passkeys.</InlineAlert>
        ) : adding ? (
          <AddPasskeyForm
            onAdded={() => {
              setAdding(false);
              showToast('success', 'Passkey added.');
            }}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <div className="security-actions">
            <Button variant="primary" onClick={() => setAdding(true)}>
              <PlusIcon size={14} /> Add a passkey
            </Button>
          </div>
        )}
      </>
    );
  return (
    <section className="fl-card security-card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p className="fl-muted">
        Sign in with your fingerprint, face or screen lock instead of a password. A passkey also answers the second step
        of signing in.
      </p>
      {remove.isError && !remove.isPending && (
        <InlineAlert tone="error">{serverMessageOr(remove.error, 'The passkey could not be removed.')}</InlineAlert>
      )}
      {body}
      {removing && (
        <ConfirmDialog
          title="Remove this passkey?"
          confirmLabel="Remove"
          onClose={() => setRemoving(null)}
          onConfirm={() => {
            remove.mutate(removing.id, { onSuccess: () => showToast('success', 'The passkey is removed.') });
            setRemoving(null);
          }}
        >
          <p>
            <strong>{removing.name}</strong> will no longer sign you in. Other browsers signed in to your account are
            signed out.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
