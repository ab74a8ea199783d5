import { useState, type FormEvent } from 'react';
import type { ApiTokenCreateAnswer, ApiTokenCreateBody, ApiTokenSummary } from '@fieldlink/api/api-tokens';
import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_MAX_DAYS,
  API_TOKEN_NAME_MAX_LENGTH,
  apiTokenExpiry,
} from '@fieldlink/domain/api-tokens';
import {
  dateTimeInputValue,
  formatDate,
  formatDateTime,
  instantOfDateTimeInput,
  type Clock,
} from '@fieldlink/domain/date-format';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { CopyIcon, PlusIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { serverMessageOr } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SecurityTableHead } from './security-table-head';

const DAY_MS = 86_400_000;

/** The end of the chosen day in the reader's zone: a token "expiring on 3 March" works all that day. */
function expiryOf(date: string, timeZone: string): number | null {
  const start = instantOfDateTimeInput(`${date}T23:59`, timeZone);
  return start === null ? null : start + 59_999;
}

/** Making a token: its name, an optional expiry date and read-only; then its secret, shown this once. */
function NewApiTokenDialog({
  clock,
  now,
  onCreate,
  onClose,
}: {
  clock: Clock;
  now: number;
  onCreate: (body: ApiTokenCreateBody) => Promise<ApiTokenCreateAnswer>;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<ApiTokenCreateAnswer | null>(null);
  const today = dateTimeInputValue(now, clock.timeZone).slice(0, 10);
  const lastDay = dateTimeInputValue(now + API_TOKEN_MAX_DAYS * DAY_MS, clock.timeZone).slice(0, 10);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setProblem('Give the token a name, so you know later what uses it.');
      return;
    }
    let expiresAt: number | undefined;
    if (expiresOn) {
      const requested = expiryOf(expiresOn, clock.timeZone);
      const checked = requested === null ? { problem: 'Enter a date.' } : apiTokenExpiry(requested, now);
      if ('problem' in checked) {
        setProblem(checked.problem);
        return;
      }
      expiresAt = checked.expiresAt;
    }
    setProblem(null);
    setBusy(true);
    try {
      setMade(await onCreate({ name: name.trim(), readOnly, ...(expiresAt === undefined ? {} : { expiresAt }) }));
    } catch (error) {
      setProblem(serverMessageOr(error, 'The token could not be made.'));
    } finally {
      setBusy(false);
    }
  };

  if (made) {
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(made.token);
        showToast('success', 'Token copied.');
      } catch {
        showToast('error', 'The token could not be copied: select it and copy by hand.');
      }
    };
    return (
      <Dialog
        title={`API token “${made.name}”`}
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        }
      >
        <div className="security-dialog">
          <InlineAlert tone="warning">
            Copy the token now: it will not be shown again. Whoever holds it can call the API as you
            {made.readOnly ? ', to read only' : ''}, until {formatDate(made.expiresAt, clock)}.
          </InlineAlert>
          <code className="security-token" data-testid="new-api-token">
            {made.token}
          </code>
          <div className="security-actions">
            <Button onClick={() => void copy()}>
              <CopyIcon size={14} /> Copy
            </Button>
          </div>
          <p className="fl-muted">
            Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
          </p>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      title="New API token"
      description="For a script or an integration: it can do at most what you can."
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form="new-api-token" variant="primary" busy={busy}>
            Make token
          </Button>
        </>
      }
    >
      <form id="new-api-token" className="security-dialog" onSubmit={(event) => void onSubmit(event)} noValidate>
        <TextField
          label="Name"
          name="name"
          maxLength={API_TOKEN_NAME_MAX_LENGTH}
          value={name}
          data-autofocus
          onChange={(event) => setName(event.target.value)}
        />
        <TextField
          label="Expires on (optional)"
          name="expiresOn"
          type="date"
          min={today}
          max={lastDay}
          value={expiresOn}
          hint={`Without a date it works for ${API_TOKEN_DEFAULT_DAYS} days; at most ${API_TOKEN_MAX_DAYS}.`}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
        <div className="security-switch">
          <button
            type="button"
            role="switch"
            aria-checked={readOnly}
            aria-label="Read-only"
            className={`fl-switch${readOnly ? ' is-on' : ''}`}
            onClick={() => setReadOnly((on) => !on)}
          >
            <span className="fl-switch__knob" />
          </button>
          <span>
            Read-only <span className="fl-sub">It can read what you can, and change nothing.</span>
          </span>
        </div>
        {problem && <InlineAlert tone="error">{problem}</InlineAlert>}
      </form>
    </Dialog>
  );
}

/**
 * The user's personal API tokens (issue 38 item 3): made here, their secret shown once; listed with
 * when they were made, expire and were last used; revoked after asking.
 */
export function ApiTokens({
  tokens,
  clock,
  now,
  onCreate,
  onRevoke,
}: {
  tokens: readonly ApiTokenSummary[];
  clock: Clock;
  /** Now, for the form's date limits and what has expired. */
  now: number;
  onCreate: (body: ApiTokenCreateBody) => Promise<ApiTokenCreateAnswer>;
  onRevoke: (id: string) => void;
}) {
  const [making, setMaking] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenSummary | null>(null);
  return (
    <>
      {tokens.length === 0 ? (
        <p className="fl-muted">No API tokens yet.</p>
      ) : (
        <div className="fl-table-frame">
          <table className="fl-table security-table" aria-label="API tokens">
            <SecurityTableHead columns={['Name', 'Created', 'Expires', 'Last used']} />
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id} data-testid="api-token-row">
                  <td data-label="Name">
                    <span className="security-name">
                      <span>{token.name}</span>
                      {token.readOnly ? (
                        <Badge tone="info">Read-only</Badge>
                      ) : (
                        <Badge tone="neutral">Read and write</Badge>
                      )}
                      {token.expiresAt <= now && <Badge tone="danger">Expired</Badge>}
                    </span>
                  </td>
                  <td data-label="Created">
                    <span>{formatDate(token.createdAt, clock)}</span>
                  </td>
                  <td data-label="Expires">
                    <span>{formatDate(token.expiresAt, clock)}</span>
                  </td>
                  <td data-label="Last used">
                    <span>
                      {token.lastUsedAt === null ? 'Never' : formatDateTime(token.lastUsedAt, clock)}
                      {token.lastUsedAddress && <span className="fl-sub">from {token.lastUsedAddress}</span>}
                    </span>
                  </td>
                  <td className="security-table__action">
                    <Button size="sm" aria-label={`Revoke ${token.name}`} onClick={() => setRevoking(token)}>
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="security-actions">
        <Button variant="primary" onClick={() => setMaking(true)}>
          <PlusIcon size={14} /> New API token
        </Button>
      </div>
      {making && <NewApiTokenDialog clock={clock} now={now} onCreate={onCreate} onClose={() => setMaking(false)} />}
      {revoking && (
        <ConfirmDialog
          title="Revoke this API token?"
          confirmLabel="Revoke"
          onConfirm={() => {
            onRevoke(revoking.id);
            setRevoking(null);
          }}
          onClose={() => setRevoking(null)}
        >
          <p>“{revoking.name}” stops working at once. Whatever uses it can no longer call the API.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
