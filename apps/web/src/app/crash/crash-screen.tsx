import { Button } from '../../components/ui/button';
import { AlertCircleIcon, RefreshIcon } from '../../components/ui/icons';
import { PanelMessage } from '../../components/ui/panel-message';
import { isChunkLoadError } from './chunk-load-error';

/** What a crash looks like (specification §2): a short apology, or a reload offer for a chunk failure. */
export function CrashScreen({ error }: { error: unknown }) {
  if (isChunkLoadError(error)) {
    return (
      <PanelMessage
        icon={<RefreshIcon size={26} />}
        title="A new version is available"
        actions={
          <Button variant="primary" onClick={() => window.location.reload()}>
            <RefreshIcon size={16} />
            Reload
          </Button>
        }
      >
        Part of the console could not be loaded, usually because it was just updated. Reload the page to continue.
      </PanelMessage>
    );
  }
  return (
    <PanelMessage icon={<AlertCircleIcon size={26} />} title="There was an error">
      Please try again later
    </PanelMessage>
  );
}
