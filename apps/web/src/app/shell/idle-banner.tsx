import { useMemo } from 'react';
import { Link } from 'react-router';
import { CloudOffIcon, WarningIcon } from '../../components/ui/icons';
import { listDevices } from '../../lib/account-tree';
import { useAccount } from '../../lib/api/get-account';
import { appStore } from '../../lib/app-store/app-store';
import { useConnectionStatus, useDisconnectedCount, useReconnectAttempt } from '../../lib/realtime/use-realtime';
import { useStore } from '../../lib/use-store';

/**
 * The 40 px banner (specification §2): only while the app is idle, when the web client lost its
 * cloud connection and is reconnecting, or when devices are disconnected. (Pending OTA updates for
 * admins join it with the OTA feature.)
 */
export function IdleBanner() {
  const activity = useStore(appStore, (s) => s.activity);
  const status = useConnectionStatus();
  const attempt = useReconnectAttempt();
  const { data } = useAccount();
  const devices = useMemo(() => (data ? listDevices(data.accounts).map(({ device }) => device) : []), [data]);
  const disconnected = useDisconnectedCount(devices);

  if (activity !== 'IDLE') return null;
  if (status === 'RECONNECTING') {
    return (
      <div className="shell-banner shell-banner--danger" role="alert">
        <CloudOffIcon size={17} />
        <span>
          Connection to the cloud was lost. Reconnecting{attempt > 1 ? ` (attempt ${attempt})` : ''}… Live values will
          resume automatically.
        </span>
      </div>
    );
  }
  if (disconnected > 0) {
    return (
      <div className="shell-banner shell-banner--warning" role="status">
        <WarningIcon size={17} />
        <span>{disconnected === 1 ? '1 device is disconnected.' : `${disconnected} devices are disconnected.`}</span>
        <Link to="/dash" className="shell-banner__link">
          View devices
        </Link>
      </div>
    );
  }
  return null;
}
