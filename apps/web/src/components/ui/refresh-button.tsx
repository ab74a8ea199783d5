import { RefreshIcon } from './icons';
import { Spinner } from './spinner';

/** Reads a list again; a spinner while it is being read. */
export function RefreshButton({ query }: { query: { refetch: () => unknown; isFetching: boolean } }) {
  return (
    <button
      type="button"
      className="fl-icon-button"
      aria-label="Refresh"
      title="Refresh"
      onClick={() => void query.refetch()}
      disabled={query.isFetching}
    >
      {query.isFetching ? <Spinner size={14} /> : <RefreshIcon size={14} />}
    </button>
  );
}
