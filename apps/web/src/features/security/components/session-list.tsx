import { useState } from 'react';
import type { SessionSummary } from '@fieldlink/api/sessions';
import { formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SecurityTableHead } from './security-table-head';

type Confirming = { kind: 'one'; session: SessionSummary } | { kind: 'others' } | null;

/**
 * The user's signed-in sessions (issue 38 item 4): the browser in words, where it was last seen from,
 * when it signed in and was last seen, in the reader's clock. This browser is marked and cannot be
 * signed out here (the account menu's Sign out does that); every other one can, each after asking.
 */
export function SessionList({
  sessions,
  clock,
  onSignOut,
  onSignOutOthers,
  busy = false,
}: {
  sessions: readonly SessionSummary[];
  clock: Clock;
  onSignOut: (id: string) => void;
  onSignOutOthers: () => void;
  busy?: boolean;
}) {
  const [confirming, setConfirming] = useState<Confirming>(null);
  const others = sessions.filter((session) => !session.current);
  // This browser first, then the others as the server ordered them (the most recently seen first).
  const ordered = [...sessions.filter((session) => session.current), ...others];
  return (
    <>
      <div className="fl-table-frame">
        <table className="fl-table security-table" aria-label="Signed-in sessions">
          <SecurityTableHead columns={['Browser', 'Address', 'Signed in', 'Last seen']} />
          <tbody>
            {ordered.map((session) => (
              <tr key={session.id} data-testid="session-row">
                <td data-label="Browser">
                  <span className="security-name">
                    <span title={session.userAgent ?? undefined}>{session.browser}</span>
                    {session.current && <Badge tone="success">This browser</Badge>}
                  </span>
                </td>
                <td data-label="Address">
                  <span>{session.address ?? 'Unknown'}</span>
                </td>
                <td data-label="Signed in">
                  <span>{formatDateTime(session.createdAt, clock)}</span>
                </td>
                <td data-label="Last seen">
                  <span>{session.current ? 'Now' : formatDateTime(session.lastSeenAt, clock)}</span>
                </td>
                <td className="security-table__action">
                  {!session.current && (
                    <Button
                      size="sm"
                      disabled={busy}
                      aria-label={`Sign out ${session.browser} (${session.address ?? 'unknown address'})`}
                      onClick={() => setConfirming({ kind: 'one', session })}
                    >
                      Sign out
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {others.length > 0 ? (
        <div className="security-actions">
          <Button variant="danger" disabled={busy} onClick={() => setConfirming({ kind: 'others' })}>
            Sign out all other sessions
          </Button>
        </div>
      ) : (
        <p className="fl-muted">You are signed in on this browser only.</p>
      )}
      {confirming?.kind === 'one' && (
        <ConfirmDialog
          title="Sign this session out?"
          confirmLabel="Sign out"
          onConfirm={() => {
            onSignOut(confirming.session.id);
            setConfirming(null);
          }}
          onClose={() => setConfirming(null)}
        >
          <p>
            {confirming.session.browser}
            {confirming.session.address ? ` at ${confirming.session.address}` : ''} is signed out at once and has to
            sign in again.
          </p>
        </ConfirmDialog>
      )}
      {confirming?.kind === 'others' && (
        <ConfirmDialog
          title="Sign out all other sessions?"
          confirmLabel="Sign out all others"
          onConfirm={() => {
            onSignOutOthers();
            setConfirming(null);
          }}
          onClose={() => setConfirming(null)}
        >
          <p>
            {others.length === 1 ? 'One other session is' : `${others.length} other sessions are`} signed out at once.
            This browser stays signed in.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
