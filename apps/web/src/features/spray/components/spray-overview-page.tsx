import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQueries } from '@tanstack/react-query';
import { BROADCAST_SPRAY_COOLDOWN_SECONDS, NO_DEVICE_IN_GROUP } from '@fieldlink/domain/spray';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { PanelMessage } from '../../../components/ui/panel-message';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { Spinner } from '../../../components/ui/spinner';
import { showToast } from '../../../lib/app-store/app-store';
import { deviceQuery } from '../../../lib/api/get-device';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useLiveDevices } from '../../../lib/realtime/use-live-devices';
import { ApiError } from '../../../lib/api-client';
import { useCan, useDeviceActionRefusal, useMonitorOnlyRefusal } from '../../../lib/session/use-can';
import { useSessionContext } from '../../../lib/session/use-session-context';
import { useStore } from '../../../lib/use-store';
import { useBroadcastSpray } from '../api/post-broadcast-spray';
import {
  broadcastErrorMessage,
  broadcastOutcome,
  broadcastRetryAfterSeconds,
  devicesUnder,
  findGroup,
  pickableGroups,
  sprayerPlaces,
} from '../model/spray-view';
import { BroadcastDialog } from './broadcast-dialog';
import { SprayerCard } from './sprayer-card';
import { SprayerPlaceholder } from './sprayer-placeholder';
import './spray.css';

/**
 * /spray/:groupId: the spray overview of a group (application §1 "spray and tank-control app"):
 * every sprayer of the group and the groups beneath it, live, with broadcast spray for the group.
 */
export function SprayOverviewPage() {
  const { groupId = '' } = useParams();
  const navigate = useNavigate();
  const session = useSessionContext();
  const canView = useCan('viewDashboard');
  const canBroadcast = useCan('broadcastSpray');

  const placed = useMemo(() => {
    if (session.status !== 'ready') return null;
    for (const account of session.accounts) {
      const group = findGroup(account.rootGroup, groupId);
      if (group) return { account, group };
    }
    return null;
  }, [session, groupId]);

  const treeDevices = useMemo(() => (placed ? devicesUnder(placed.group) : []), [placed]);
  const records = useQueries({
    queries: treeDevices.map((device) => ({ ...deviceQuery(device.id), enabled: canView })),
  });
  // A unit is a sprayer when its registers hold the spray schedules, as it last reported them. Each
  // holds its place from the first frame (the tree names it), so no card moves as records come in.
  const liveConfig = useStore(realtimeStore, (s) => s.config);
  const places = sprayerPlaces(
    treeDevices.map((tree, index) => ({
      tree,
      record: records[index]?.data,
      liveRegisters: liveConfig[tree.thingName]?.registers,
      failed: records[index]?.isError ?? false,
    })),
  );
  const sprayers = places.flatMap((place) => (place.kind === 'card' ? [place.device] : []));
  const loading = records.some((record) => record.isPending);
  // Watched once every record is read, so the subscription is made once rather than per answer.
  useLiveDevices(loading ? [] : sprayers, canView);

  const broadcast = useBroadcastSpray();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'warning' | 'error'; message: string } | null>(null);
  // When the server refuses a broadcast on each group until (unix ms): from its 429's
  // `retryAfterSeconds`, or from this console's own broadcast, which started a cool-down.
  const [cooldownUntil, setCooldownUntil] = useState<Readonly<Record<string, number>>>({});
  const [refusal, setRefusal] = useState<{ message: string; final: boolean } | null>(null);
  // A monitor-only user holding MOSNIX_BROADCAST_SPRAY sees the button disabled, and why.
  const broadcastRefusal = useMonitorOnlyRefusal('broadcastSpray');
  const operateRefusal = useDeviceActionRefusal('writeChannel');

  if (session.status === 'pending') return <CenteredSpinner />;
  if (session.status === 'error' || !placed) {
    return (
      <div className="fl-page">
        <PanelMessage title="Group not found" eyebrow="Spray">
          This group does not exist or you cannot see it.
        </PanelMessage>
      </div>
    );
  }
  const { account, group } = placed;
  const online = sprayers.filter((device) => device.isConnected).length;

  const onBroadcastClick = () => {
    setOutcome(null);
    setRefusal(null);
    if (sprayers.length === 0) {
      showToast('warning', NO_DEVICE_IN_GROUP);
      return;
    }
    setConfirming(true);
  };
  const onConfirm = () => {
    setRefusal(null);
    broadcast.mutate(
      { groupId: group.id },
      {
        onSuccess: (answer) => {
          const result = broadcastOutcome(answer);
          if (answer.devices.length > 0) {
            setCooldownUntil((until) => ({
              ...until,
              [group.id]: Date.now() + BROADCAST_SPRAY_COOLDOWN_SECONDS * 1000,
            }));
          }
          setConfirming(false);
          setOutcome(result);
          showToast(result.tone === 'success' ? 'success' : 'warning', result.message);
        },
        // A refusal is said once, in the dialog, which stays open: the cool-down counts down there
        // (the server's `retryAfterSeconds`); a missing permission (401, §6) is said and the session
        // goes on; anything else may be tried again.
        onError: (error) => {
          const waitSeconds = broadcastRetryAfterSeconds(error);
          if (waitSeconds !== null) {
            setCooldownUntil((until) => ({ ...until, [group.id]: Date.now() + waitSeconds * 1000 }));
            return;
          }
          setRefusal({
            message: broadcastErrorMessage(error),
            final: error instanceof ApiError && error.status === 401,
          });
        },
      },
    );
  };

  return (
    <div className="fl-page spray-page">
      <PageHeader
        title={group.kind === 'root' ? `Spray · ${account.name}` : `Spray · ${group.name}`}
        summary={
          <span data-testid="sprayer-summary">
            {loading
              ? 'Loading sprayers…'
              : `${sprayers.length} ${sprayers.length === 1 ? 'sprayer' : 'sprayers'} · ${online} online`}
          </span>
        }
      >
        <div className="spray-toolbar">
          <label className="spray-toolbar__group">
            <span className="fl-visually-hidden">Group</span>
            <select
              className="fl-select"
              aria-label="Group"
              value={group.id}
              onChange={(event) => void navigate(`/spray/${event.target.value}`)}
            >
              {pickableGroups(account.rootGroup).map(({ group: option, depth }) => (
                <option key={option.id} value={option.id}>
                  {`${'\u00a0\u00a0'.repeat(depth)}${option.name}`}
                </option>
              ))}
            </select>
          </label>
          {(canBroadcast || broadcastRefusal !== null) && (
            <span title={broadcastRefusal ?? undefined}>
              <Button variant="danger" onClick={onBroadcastClick} disabled={loading || broadcastRefusal !== null}>
                Broadcast spray
              </Button>
            </span>
          )}
        </div>
      </PageHeader>

      {canView && <RefusalNote reason={operateRefusal} />}

      {outcome && (
        <div className="spray-outcome" data-testid="broadcast-outcome">
          <InlineAlert tone={outcome.tone}>{outcome.message}</InlineAlert>
        </div>
      )}

      {!canView ? (
        <PanelMessage title="No dashboard access" eyebrow="Spray">
          You do not have permission to view dashboards.
        </PanelMessage>
      ) : places.length === 0 ? (
        loading ? (
          <CenteredSpinner />
        ) : (
          <PanelMessage title="No sprayers in this group" eyebrow="Spray">
            {treeDevices.length === 0
              ? 'This group has no devices.'
              : 'None of the devices of this group reports spray schedules.'}
          </PanelMessage>
        )
      ) : (
        <div className="spray-grid">
          {places.map((place) =>
            place.kind === 'card' ? (
              <SprayerCard key={place.device.id} device={place.device} />
            ) : (
              <SprayerPlaceholder key={place.device.id} device={place.device} failed={place.failed} />
            ),
          )}
        </div>
      )}

      {confirming && (
        <BroadcastDialog
          groupName={group.name}
          sprayers={sprayers}
          busy={broadcast.isPending}
          cooldownUntil={cooldownUntil[group.id] ?? null}
          refusal={refusal}
          onConfirm={onConfirm}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

function CenteredSpinner() {
  return (
    <div className="spray-loading">
      <Spinner />
    </div>
  );
}
