import { Link, useLocation } from 'react-router';
import { WarningIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';

/** /bp-no-data: where a failed inventory load lands (application §8). */
export function BpNoDataPage() {
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const retry = typeof from === 'string' && from.startsWith('/inv/') ? from : '/inv/cig';
  return (
    <PanelMessage
      icon={<WarningIcon size={26} />}
      title="No inventory data"
      actions={
        <Link to={retry} className="fl-button fl-button--primary">
          Try again
        </Link>
      }
    >
      The inventory data for this store or region could not be loaded. It may have been moved or you may no longer have
      access to it; otherwise try again in a few minutes.
    </PanelMessage>
  );
}
