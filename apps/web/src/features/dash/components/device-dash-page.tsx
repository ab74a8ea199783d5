import { useEffect, useMemo, type ReactNode } from 'react';
import { channelName, isWithinMaxCount } from '@fieldlink/domain/channels';
import { deviceTimeZone } from '@fieldlink/domain/date-format';
import { compareChannelCodes } from '@fieldlink/domain/channel-presentation';
import { Link, useParams } from 'react-router';
import { ArrowLeftIcon, DeviceIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { findDeviceByThingName } from '../../../lib/account-tree';
import { serverErrorMessage } from '../../../lib/api-client';
import { useAccount } from '../../../lib/api/get-account';
import { appStore, dispatchSession } from '../../../lib/app-store/app-store';
import { rememberLastDevice } from '../../../lib/last-device';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useDeviceConfig, useDeviceHealth } from '../../../lib/realtime/use-realtime';
import { useDeviceIntervals } from '../../../lib/realtime/use-device-intervals';
import { useDeviceTimeZone } from '../../../lib/page-time-zone';
import { useCan, useDeviceActionRefusal } from '../../../lib/session/use-can';
import { useStore } from '../../../lib/use-store';
import { useDevice } from '../../../lib/api/get-device';
import { useLiveDevice } from '../hooks/use-live-device';
import { CellularDetails } from './cellular-details';
import { ChannelCard } from './channel-card';
import { ConnectionHistory } from './connection-history';
import { DeviceActions } from './device-actions';
import { DeviceHeader } from './device-header';
import { DeviceTags } from './device-tags';
import { HealthSummary } from './health-summary';
import { LogChartPanel } from './log-chart-panel';
import './dash.css';

export interface DeviceDashPageProps {
  /**
   * The general-information panel and map, supplied by the app (they belong to the devices
   * feature, and features do not import each other).
   */
  renderInfo?: (device: { id: string; thingName: string }) => ReactNode;
  /** A channel's alarm control, supplied by the app (it belongs to the alarms feature). */
  renderChannelAlarm?: (device: { id: string; thingName: string }, code: string, title: string) => ReactNode;
}

/** `/dash/:thingName`: one device, live. */
export function DeviceDashPage({ renderInfo, renderChannelAlarm }: DeviceDashPageProps = {}) {
  const { thingName = '' } = useParams();
  const account = useAccount();
  const placed = useMemo(
    () => (account.data ? findDeviceByThingName(account.data.accounts, thingName) : null),
    [account.data, thingName],
  );
  const device = useDevice(placed?.device.id);
  const liveTarget = useMemo(
    () => (placed ? { id: placed.device.id, thingName: placed.device.thingName } : undefined),
    [placed],
  );
  const latest = useLiveDevice(liveTarget);
  const session = useStore(appStore, (state) => state.session);
  const canConfigure = useCan('configureDevices');
  // A monitor-only user's setpoints, relays, flags and FLASH LED are disabled: say why once, in words.
  const operateRefusal = useDeviceActionRefusal('writeChannel');
  const liveConfig = useDeviceConfig(thingName);
  const { uploadInterval, logInterval } = useDeviceIntervals(placed?.device.id, thingName);
  const liveHealth = useDeviceHealth(thingName);
  // Every time on this page is in the device's zone, as the device's clock reads it.
  useDeviceTimeZone(
    deviceTimeZone({
      timeDate: liveConfig?.timeDate ?? device.data?.timeDate ?? null,
      health: liveHealth ?? device.data?.health ?? null,
    }),
  );
  // Only the set of codes, as one string: a new value must not re-render the whole grid.
  const liveCodes = useStore(realtimeStore, (s) =>
    Object.keys(s.latest[thingName] ?? {})
      .sort()
      .join(' '),
  );

  // Signing in again lands on the device last opened here.
  const email = session.email;
  useEffect(() => {
    if (placed) rememberLastDevice(email, placed.device.thingName);
  }, [email, placed]);

  useEffect(() => {
    if (!device.isFetching) return;
    dispatchSession({ type: 'BEGIN', activity: 'READING_DEVICE' });
    return () => dispatchSession({ type: 'END', activity: 'READING_DEVICE' });
  }, [device.isFetching]);

  const channels = useMemo(() => {
    const configured = liveConfig?.channels ?? device.data?.channels ?? [];
    const known = new Map(
      configured.map((channel) => [channel.code, { name: channel.name ?? null, units: channel.units ?? null }]),
    );
    for (const code of liveCodes.split(' ').filter(Boolean)) {
      if (!known.has(code)) known.set(code, { name: null, units: null });
    }
    // Codes past their prefix's maximum count (core §9, expanded IO: the device's own) are not its channels.
    const expandedIoMax = liveConfig?.expandedIoMax ?? device.data?.expandedIoMax ?? null;
    return [...known.entries()]
      .filter(([code]) => isWithinMaxCount(code, expandedIoMax))
      .sort(([a], [b]) => compareChannelCodes(a, b))
      .map(([code, { name, units }]) => ({ code, name, units }));
  }, [liveConfig?.channels, liveConfig?.expandedIoMax, device.data?.channels, device.data?.expandedIoMax, liveCodes]);

  if (account.isPending) return <DashSkeleton />;
  if (account.isError) {
    return <PanelMessage title="Could not read your account">{serverErrorMessage(account.error)}</PanelMessage>;
  }
  if (!placed) {
    return (
      <PanelMessage
        icon={<DeviceIcon size={26} />}
        title="Device not found"
        actions={
          <Link to="/dash" className="fl-button fl-button--primary">
            Choose a device
          </Link>
        }
      >
        No device named “{thingName}” is in your accounts. It may have been moved or removed.
      </PanelMessage>
    );
  }

  return (
    <div className="dash">
      <div className="dash__top">
        <Link to="/dash" className="dash__back">
          <ArrowLeftIcon size={16} /> All devices
        </Link>
        {session.canViewDash && <DeviceActions thingName={thingName} deviceName={placed.device.name} />}
      </div>
      {session.canViewDash && <RefusalNote reason={operateRefusal} />}
      <DeviceHeader
        account={placed.account}
        groupId={placed.group.id}
        treeDevice={placed.device}
        device={device.data}
      />
      {device.isError && (
        <PanelMessage title="Could not read the device">{serverErrorMessage(device.error)}</PanelMessage>
      )}
      <section className="dash__channels" aria-labelledby="channels-heading">
        <div className="dash__section-head">
          <h2 id="channels-heading">Channels</h2>
          <span className="fl-muted">{channels.length > 0 ? `${channels.length} channels` : ''}</span>
        </div>
        {channels.length === 0 ? (
          device.isPending || latest.isPending ? (
            <ChannelGridSkeleton />
          ) : (
            <p className="dash__empty">This device has not reported any channel yet.</p>
          )
        ) : (
          <div className="channel-grid">
            {channels.map(({ code, name, units }) => (
              <ChannelCard
                key={code}
                thingName={thingName}
                deviceName={placed.device.name}
                code={code}
                name={name}
                units={units}
                uploadInterval={uploadInterval}
                logInterval={logInterval}
                writable={session.canViewDash}
                alarm={renderChannelAlarm?.(placed.device, code, channelName(code, name))}
              />
            ))}
          </div>
        )}
      </section>
      <LogChartPanel deviceId={placed.device.id} channels={channels} />
      {/* What people come for (live channels, their logs) first; the device's health and facts after. */}
      <HealthSummary thingName={thingName} initial={device.data?.health} />
      {renderInfo?.({ id: placed.device.id, thingName })}
      <div className="dash__cards">
        {device.data && <DeviceTags device={device.data} canEdit={canConfigure} />}
        <ConnectionHistory deviceId={placed.device.id} thingName={thingName} />
        {device.data && <CellularDetails device={device.data} />}
      </div>
    </div>
  );
}

function ChannelGridSkeleton() {
  return (
    <div className="channel-grid" aria-hidden="true">
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="fl-skeleton channel-card--skeleton" />
      ))}
    </div>
  );
}

function DashSkeleton() {
  return (
    <div className="dash" role="status" aria-label="Loading device">
      <div className="fl-skeleton" style={{ height: 26, width: 240 }} />
      <div className="fl-skeleton" style={{ height: 80 }} />
      <ChannelGridSkeleton />
    </div>
  );
}
