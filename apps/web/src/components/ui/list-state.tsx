import type { ReactNode } from 'react';
import { serverErrorMessage } from '../../lib/api-client';
import { InlineAlert } from './inline-alert';
import { Spinner } from './spinner';

export interface EmptyNote {
  icon: ReactNode;
  title: string;
  text: string;
}

/** A spinner in a card while a list (or what it needs first) is read. */
export function LoadingNote({ noun }: { noun: string }) {
  return (
    <div className="fl-list-note fl-card" role="status">
      <Spinner size={20} /> Loading {noun}…
    </div>
  );
}

/**
 * The body of a list page (alarms, alerts, reports, schedules): why the list could not be read, a
 * spinner while it is first read, a note when nothing is shown, else the list.
 */
export function ListState({
  query,
  noun,
  empty,
  children,
}: {
  query: { isError: boolean; isPending: boolean; error: unknown };
  noun: string;
  /** What to say when nothing is shown; null when there are rows. */
  empty: EmptyNote | null;
  children: ReactNode;
}) {
  return (
    <>
      {query.isError && (
        <InlineAlert tone="error">
          The {noun} could not be loaded: {serverErrorMessage(query.error)}
        </InlineAlert>
      )}
      {query.isPending ? (
        <LoadingNote noun={noun} />
      ) : empty ? (
        <div className="fl-list-note fl-card">
          {empty.icon}
          <div>
            <strong>{empty.title}</strong>
            <p className="fl-muted">{empty.text}</p>
          </div>
        </div>
      ) : (
        children
      )}
    </>
  );
}
