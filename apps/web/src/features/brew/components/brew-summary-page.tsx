import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { DashboardIcon, WarningIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { PanelMessage } from '../../../components/ui/panel-message';
import { RefreshButton } from '../../../components/ui/refresh-button';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/api-client';
import { useCan } from '../../../lib/session/use-can';
import { useLiveDevices } from '../../../lib/realtime/use-live-devices';
import { useTanks } from '../model/use-tanks';
import { FinishedBatches } from './batch-panels';
import { TankCard } from './tank-card';
import { TankView } from './tank-view';
import './brew.css';

/**
 * /brew/summary/{groupId}: every tank of the group as a live card; `?tank=n` opens that tank's view
 * (chart, batch, gravity readings, tasting notes, setpoint, calibration, reports).
 */
export function BrewSummaryPage() {
  const { groupId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const tankParameter = Number(search.get('tank') ?? '');
  const selectedNumber =
    Number.isInteger(tankParameter) && tankParameter > 0 && tankParameter <= 65_535 ? tankParameter : null;
  const { overview, tanks } = useTanks(groupId, selectedNumber);
  const live = useMemo(() => (tanks ?? []).map((tank) => ({ id: tank.deviceId, thingName: tank.thingName })), [tanks]);
  const canView = useCan('viewDashboard');
  useLiveDevices(live, canView);
  const selected = tanks?.find((tank) => tank.tankNumber === selectedNumber);
  const open = (tankNumber: number | null) =>
    setSearch(tankNumber === null ? {} : { tank: String(tankNumber) }, { replace: tankNumber === null });

  if (overview.isError) {
    return (
      <PanelMessage icon={<WarningIcon size={26} />} title="The brew summary could not be loaded">
        {serverErrorMessage(overview.error)}
      </PanelMessage>
    );
  }
  if (!tanks || !overview.data) {
    return (
      <div className="fl-page brew-loading">
        <Spinner size={28} label="Loading the tanks" />
      </div>
    );
  }
  if (selected)
    return <TankView key={selected.tankNumber} groupId={groupId} tank={selected} onBack={() => open(null)} />;

  const running = tanks.filter((tank) => tank.batchInfo).length;
  return (
    <div className="fl-page brew-summary">
      <PageHeader
        title={overview.data.groupName}
        summary={
          <>
            <span data-testid="brew-count">
              {tanks.length} {tanks.length === 1 ? 'tank' : 'tanks'} · {running} with a batch
            </span>
            <RefreshButton query={overview} />
          </>
        }
      />
      {tanks.length === 0 ? (
        <PanelMessage icon={<DashboardIcon size={26} />} title="No tanks in this group">
          Move the group’s fermentation tank controllers here to follow their batches.
        </PanelMessage>
      ) : (
        <div className="brew-grid">
          {tanks.map((tank) => (
            <TankCard key={tank.deviceId} tank={tank} onOpen={() => open(tank.tankNumber)} />
          ))}
        </div>
      )}
      <FinishedBatches groupId={groupId} tanks={tanks} />
    </div>
  );
}
