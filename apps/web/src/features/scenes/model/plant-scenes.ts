import type { Scene, Widget } from '@fieldlink/api/scenes';
import {
  GENERATED_WIDGET_ACCOUNT_ID,
  plantDashboard,
  type PlantAppType,
  type PlantDevice,
  type PlantSection,
  type PlantWidget,
  type PlantWidgetGroup,
} from '@fieldlink/domain/plant-dashboard';
import { scenePath, widgetPath } from '@fieldlink/domain/group-path';
import { packedGridLayout, widgetWithDefaults } from '@fieldlink/domain/widgets';

/** A section of a generated plant dashboard as a read-only scene of the scene kit. */
export interface PlantScene {
  section: PlantSection;
  group: PlantWidgetGroup | null;
  scene: Scene;
  /**
   * The Alarms section only: its alarms that are normal, grouped apart; `scene` then holds the
   * active ones, so they come first (issue 36 item 3).
   */
  normal?: Scene;
}

/** The generated widget as a widget of the scene kit, on the device's channels. */
function sceneWidget(widget: PlantWidget, deviceId: string, groupId: string, sceneId: string): Widget {
  return {
    ...widgetWithDefaults({
      type: widget.type,
      name: widget.name,
      ...(widget.min !== undefined && { min: widget.min }),
      ...(widget.max !== undefined && { max: widget.max }),
      ...(widget.activeColor !== undefined && { activeColor: widget.activeColor }),
    }),
    id: widget.key,
    doesInheritName: false,
    channels: widget.channels.map(([code, name]) => ({ deviceId, code, name, legendVisibility: true })),
    arcSegments: (widget.arcSegments ?? []).map((band) => ({ ...band })),
    ...(widget.units !== undefined && { units: widget.units }),
    annotations: [],
    yAxis: (widget.axes ?? []).map((axis) => ({
      channels: axis.codes.map((code) => `${deviceId}:${code}`),
      name: axis.name,
      units: axis.units,
      isDedicated: false,
      hasFixRange: true,
      min: axis.min,
      max: axis.max,
    })),
    path: widgetPath(groupId, sceneId, widget.key),
    groupId,
    sceneId,
  };
}

/**
 * The generated dashboard of a plant device (applications §2, §4): one read-only scene per section,
 * its widgets laid out in order, under the generated-widget account id '3' (§9). Nothing is stored:
 * a change of the device's configuration tag changes the scenes at once. The alarms on now
 * (`activeAlarmCodes`, by channel code) lead the Alarms section; the normal ones follow as a group.
 */
export function plantScenes(
  appType: PlantAppType,
  device: PlantDevice & { id: string; thingName: string },
  groupId: string,
  activeAlarmCodes: ReadonlySet<string> = new Set(),
): PlantScene[] {
  return plantDashboard(appType, device).map(({ section, group, widgets }, index) => {
    const sceneId = `plant-${device.thingName}-${index}`;
    const scene = (id: string, shown: readonly PlantWidget[]): Scene => ({
      id,
      name: section,
      type: 'grid',
      index,
      accountId: GENERATED_WIDGET_ACCOUNT_ID,
      path: scenePath(groupId, id),
      groupId,
      isGridLocked: true,
      widgets: shown.map((widget) => sceneWidget(widget, device.id, groupId, id)),
      gridLayout: packedGridLayout(shown.map((widget) => ({ id: widget.key, type: widget.type, w: widget.w }))),
      appType,
      readOnly: true,
    });
    if (section !== 'Alarms') return { section, group, scene: scene(sceneId, widgets) };
    const isActive = (widget: PlantWidget) => widget.channels.some(([code]) => activeAlarmCodes.has(code));
    return {
      section,
      group,
      scene: scene(sceneId, widgets.filter(isActive)),
      normal: scene(
        `${sceneId}-normal`,
        widgets.filter((widget) => !isActive(widget)),
      ),
    };
  });
}

/** The alarm flags a plant's dashboard shows, by channel code and name, in the Alarms section's order. */
export function plantAlarmChannels(sections: readonly PlantScene[]): { code: string; name: string }[] {
  const alarms = sections.find((section) => section.section === 'Alarms');
  if (!alarms) return [];
  return [...alarms.scene.widgets, ...(alarms.normal?.widgets ?? [])].flatMap((widget) =>
    widget.channels.map((channel) => ({ code: channel.code, name: widget.name })),
  );
}
