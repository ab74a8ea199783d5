import type { ReactNode } from 'react';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';

export interface EmptyNote {
  icon: ReactNode;
  title: string;
  text: string;
}

/**
 * The body of the alarms and alerts pages: why the list could not be read, a spinner while it is
 * first read, a note when nothing is shown, else the list.
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
        <div className="alarms-empty fl-card" role="status">
          <Spinner size={20} /> Loading {noun}…
        </div>
      ) : empty ? (
        <div className="alarms-empty fl-card">
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
