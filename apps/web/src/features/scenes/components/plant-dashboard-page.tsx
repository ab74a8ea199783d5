import { deviceActionRefusal } from '@fieldlink/domain/device-actions';
import { useCallback, useMemo, useState, type ComponentProps } from 'react';
import { Link } from 'react-router';
import type { Device } from '@fieldlink/api/device';
import {
  deviceFeatures,
  PLANT_CONFIG_TAG_KEYS,
  offeredPlantFeatures,
  PLANT_FEATURES,
  plantFeaturesTag,
  type PlantAppType,
  type PlantFeature,
} from '@fieldlink/domain/plant-dashboard';
import { can } from '@fieldlink/domain/permissions';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { Dialog } from '../../../components/ui/dialog';
import { DeviceIcon, TagIcon } from '../../../components/ui/icons';
import { serverErrorMessage } from '../../../lib/api-client';
import { useDeviceTags } from '../../../lib/api/put-device-tag';
import { showToast } from '../../../lib/app-store/app-store';
import { useDeviceConnection } from '../../../lib/realtime/use-realtime';
import type { SceneContext } from '../hooks/use-scene-context';
import { useLiveDevices } from '../../../lib/realtime/use-live-devices';
import { plantAlarmChannels, plantScenes } from '../model/plant-scenes';
import { PlantStatusLine } from './plant-status-line';
import { SceneGrid } from './scene-grid';
import './scenes.css';

const noop = () => undefined;

/** A section's widgets as generated: neither arranged nor edited on the plant dashboard. */
function GeneratedGrid(props: Pick<ComponentProps<typeof SceneGrid>, 'scene' | 'devices' | 'controlsDisabled'>) {
  return (
    <SceneGrid
      {...props}
      arrangeable={false}
      editable={false}
      onSaveLayout={noop}
      onEditWidget={noop}
      onDeleteWidget={noop}
    />
  );
}
const APP_LABELS: Record<PlantAppType, string> = { filtec: 'Filtec water plant', 'filtec moe': 'Filtec MOE plant' };

export interface PlantDashboardProps {
  appType: PlantAppType;
  device: Device;
  /** The group the device sits in. */
  groupId: string;
  context: SceneContext;
  /** The device's own dash (channels, settings, tags, map). */
  deviceDetailsTo: string;
}

/**
 * A water plant's dashboard, generated from the plant model for its app type and the features of
 * its configuration tag (applications §2, §4, §9): one read-only section per widget group, live.
 * Those who configure devices choose the plant's features here; the dashboard follows at once.
 */
export function PlantDashboard({ appType, device, groupId, context, deviceDetailsTo }: PlantDashboardProps) {
  const [choosing, setChoosing] = useState(false);
  const [activeAlarms, setActiveAlarms] = useState<ReadonlySet<string>>(() => new Set());
  const sections = useMemo(
    () => plantScenes(appType, device, groupId, activeAlarms),
    [appType, device, groupId, activeAlarms],
  );
  const alarmChannels = useMemo(
    () => plantAlarmChannels(plantScenes(appType, device, groupId)),
    [appType, device, groupId],
  );
  const hasWaterTank = useMemo(() => deviceFeatures(appType, device.tags).has('waterTank'), [appType, device.tags]);
  const viewDashboard = can(context.subject, 'viewDashboard');
  const canConfigure = can(context.subject, 'configureDevices');
  // The plant's run, resets and setpoints: a monitor-only user sees them disabled, and why.
  const operateRefusal = deviceActionRefusal(context.subject, 'writeChannel');
  const live = useMemo(() => [{ id: device.id, thingName: device.thingName }], [device.id, device.thingName]);
  useLiveDevices(live, viewDashboard);
  const connected = useDeviceConnection(device.thingName)?.isConnected ?? device.isConnected;
  const closeChooser = useCallback(() => setChoosing(false), []);

  return (
    <div className="scene-page plant-page" data-testid="plant-dashboard">
      <header className="scene-page__head">
        <div className="scene-page__titles">
          <p className="plant-page__kind">{APP_LABELS[appType]}</p>
          <h1 className="scene-page__title">
            {device.name}{' '}
            <Badge tone={connected ? 'success' : 'danger'} dot>
              {connected ? 'Online' : 'Offline'}
            </Badge>
          </h1>
        </div>
        <div className="scene-page__actions">
          {canConfigure && (
            <Button variant="secondary" size="sm" onClick={() => setChoosing(true)}>
              <TagIcon size={15} /> Plant features
            </Button>
          )}
          <Link to={deviceDetailsTo} className="fl-button fl-button--secondary fl-button--sm">
            <DeviceIcon size={15} /> Device details
          </Link>
        </div>
      </header>
      <PlantStatusLine
        deviceId={device.id}
        thingName={device.thingName}
        connected={connected}
        hasWaterTank={hasWaterTank}
        alarmChannels={alarmChannels}
        onActiveAlarms={setActiveAlarms}
      />
      {viewDashboard && <RefusalNote reason={operateRefusal} />}
      <nav className="plant-page__sections" aria-label="Plant sections">
        {sections.map(({ section, scene }) => (
          <a key={scene.id} href={`#${scene.id}`} className="plant-page__section-link">
            {section}
          </a>
        ))}
      </nav>
      {sections.map(({ section, group, scene, normal }) => (
        <section
          key={scene.id}
          id={scene.id}
          className="plant-page__section"
          aria-label={section}
          data-testid="plant-section"
          data-group={group ?? 'RESETS'}
        >
          <h2 className="plant-page__section-title">{section}</h2>
          {scene.widgets.length > 0 && (
            <GeneratedGrid scene={scene} devices={context.devices} controlsDisabled={!viewDashboard} />
          )}
          {normal && normal.widgets.length > 0 && (
            <details className="plant-alarms-normal" data-testid="plant-alarms-normal">
              <summary>
                {normal.widgets.length === 1 ? '1 alarm normal' : `${normal.widgets.length} alarms normal`}
              </summary>
              <GeneratedGrid scene={normal} devices={context.devices} controlsDisabled={!viewDashboard} />
            </details>
          )}
        </section>
      ))}
      {choosing && <PlantFeaturesDialog appType={appType} device={device} onClose={closeChooser} />}
    </div>
  );
}

/** The plant's optional features, written to its configuration tag (`filtecConfig` / `filtecMoeConfig`). */
function PlantFeaturesDialog({
  appType,
  device,
  onClose,
}: {
  appType: PlantAppType;
  device: Device;
  onClose: () => void;
}) {
  const { save } = useDeviceTags(device.id);
  const tagKey = PLANT_CONFIG_TAG_KEYS[appType];
  const [chosen, setChosen] = useState<Set<PlantFeature>>(() => deviceFeatures(appType, device.tags));
  const toggle = (feature: PlantFeature) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(feature)) next.add(feature);
      return next;
    });
  const apply = () => {
    const existing = device.tags.find((tag) => tag.key === tagKey);
    save.mutate(
      { deviceId: device.id, ...(existing && { tagId: existing.id }), key: tagKey, value: plantFeaturesTag(chosen) },
      { onSuccess: onClose, onError: (error) => showToast('error', serverErrorMessage(error)) },
    );
  };
  return (
    <Dialog
      title="Plant features"
      description={`What this plant has. Saved in the device's ${tagKey} tag; the dashboard shows the matching widgets.`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" busy={save.isPending} onClick={apply}>
            Apply
          </Button>
        </>
      }
    >
      <div className="plant-features">
        {offeredPlantFeatures(appType).map((feature) => (
          <label key={feature} className="plant-features__item">
            <input type="checkbox" checked={chosen.has(feature)} onChange={() => toggle(feature)} />
            {PLANT_FEATURES[feature]}
          </label>
        ))}
      </div>
    </Dialog>
  );
}
