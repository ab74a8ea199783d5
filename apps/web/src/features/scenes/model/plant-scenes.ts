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
 * a change of the device's configuration tag changes the scenes at once.
 */
export function plantScenes(
  appType: PlantAppType,
  device: PlantDevice & { id: string; thingName: string },
  groupId: string,
): PlantScene[] {
  return plantDashboard(appType, device).map(({ section, group, widgets }, index) => {
    const sceneId = `plant-${device.thingName}-${index}`;
    const sceneWidgets = widgets.map((widget) => sceneWidget(widget, device.id, groupId, sceneId));
    return {
      section,
      group,
      scene: {
        id: sceneId,
        name: section,
        type: 'grid',
        index,
        accountId: GENERATED_WIDGET_ACCOUNT_ID,
        path: scenePath(groupId, sceneId),
        groupId,
        isGridLocked: true,
        widgets: sceneWidgets,
        gridLayout: packedGridLayout(widgets.map((widget) => ({ id: widget.key, type: widget.type, w: widget.w }))),
        appType,
        readOnly: true,
      },
    };
  });
}
