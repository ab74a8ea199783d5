import { useDeferredValue, useState, useMemo } from 'react';
import { Link } from 'react-router';
import { bannerContent } from '@fieldlink/domain/ota';
import { CloudOffIcon, WarningIcon } from '../../components/ui/icons';
import type { TreeDevice } from '@fieldlink/api/account';
import { forEachDevice } from '../../lib/account-tree';
import { useAccount } from '../../lib/api/get-account';
import { appStore } from '../../lib/app-store/app-store';
import { useConnectionStatus, useDisconnectedCount, useReconnectAttempt } from '../../lib/realtime/use-realtime';
import { useStore } from '../../lib/use-store';
import { useOtaPending } from '../../features/ota/api/get-ota-pending';
import { OtaBannerItem } from '../../features/ota/components/ota-banner-item';
import { OtaPendingDialog } from '../../features/ota/components/ota-pending-dialog';
import { useOtaAccess } from '../../features/ota/hooks/use-ota-access';

/**
 * The 40 px banner (specification §2), by the rule of `bannerContent`: only while the app is idle,
 * when the web client lost its cloud connection and is reconnecting, when devices are disconnected,
 * or (administrators only) when devices have pending OTA updates.
 */
export function IdleBanner() {
  // The pending list stays open while approving empties it (and the banner's OTA part goes away).
  const [reviewing, setReviewing] = useState(false);
  return (
    <>
      <BannerLine onReview={() => setReviewing(true)} />
      {reviewing && <OtaPendingDialog onClose={() => setReviewing(false)} />}
    </>
  );
}

function BannerLine({ onReview }: { onReview: () => void }) {
  const appStatus = useStore(appStore, (s) => s.machine.status);
  // Without VIEW_DASH neither the device dashboards nor the device list (device data) are offered;
  // the account tree (VIEW_ACCOUNTS, which dashboard access then needs) shows who is offline.
  const devicesPath = useStore(appStore, (s) => (s.session.canViewDash ? '/dash' : '/accounts/treeview'));
  const status = useConnectionStatus();
  const attempt = useReconnectAttempt();
  // The count walks every device of the tree (100,000 in a large fleet): the shell's first render
  // goes without it, so the page's first content (the device table's first rows on a cold open)
  // is not held back by it, and the banner follows in a render of its own.
  const data = useDeferredValue(useAccount().data, undefined);
  const devices = useMemo(() => {
    const list: TreeDevice[] = [];
    if (data) forEachDevice(data.accounts, (device) => list.push(device));
    return list;
  }, [data]);
  const disconnected = useDisconnectedCount(devices);
  const { isAdmin } = useOtaAccess();
  const pending = useOtaPending(isAdmin);

  const content = bannerContent({
    idle: appStatus === 'IDLE',
    reconnecting: status === 'RECONNECTING',
    disconnectedDevices: disconnected,
    pendingOtaDevices: pending.data?.devices.length ?? 0,
    isAdmin,
  });
  if (!content) return null;
  if (content.reconnecting) {
    return (
      <div className="shell-banner shell-banner--danger" role="alert" data-testid="idle-banner">
        <CloudOffIcon size={17} />
        <span>
          Connection to the cloud was lost. Reconnecting{attempt > 1 ? ` (attempt ${attempt})` : ''}… Live values will
          resume automatically.
        </span>
      </div>
    );
  }
  return (
    <div className="shell-banner shell-banner--warning" role="status" data-testid="idle-banner">
      {content.disconnectedDevices > 0 && (
        <span className="shell-banner__item">
          <WarningIcon size={17} />
          <span>
            {content.disconnectedDevices === 1
              ? '1 device is disconnected.'
              : `${content.disconnectedDevices} devices are disconnected.`}
          </span>
          <Link to={devicesPath} className="shell-banner__link">
            View devices
          </Link>
        </span>
      )}
      {content.pendingOtaDevices > 0 && <OtaBannerItem count={content.pendingOtaDevices} onReview={onReview} />}
    </div>
  );
}
