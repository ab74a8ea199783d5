import { widgetConfirmsCommands } from '@fieldlink/domain/plant-dashboard';
import { useCallback, useMemo, useRef } from 'react';
import { getBreakpointFromWidth, Responsive, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import type { Scene, Widget } from '@fieldlink/api/scenes';
import { GRID_BREAKPOINT_COLUMNS, type GridBreakpoint } from '@fieldlink/domain/widgets';
import { GRID_BREAKPOINT_WIDTHS, sameLayout, sceneLayouts, type LayoutItem } from '../model/grid-layout';
import { resolveChannels, type DeviceIndex } from '../model/resolve-channels';
import type { ResolvedChannel } from '../widgets/widget-definition';
import { WidgetFrame } from './widget-frame';

/** Grid rows are this tall (px); a widget of the default h 4 is about 150 px tall. */
const ROW_HEIGHT = 30;
const MARGIN: readonly [number, number] = [12, 12];
const PADDING: readonly [number, number] = [0, 0];
const RESIZE_HANDLES = ['se'] as const;
const NO_CHANNELS: readonly ResolvedChannel[] = [];

export interface SceneGridProps {
  scene: Scene;
  devices: DeviceIndex;
  /** Widgets can be moved and resized: unlocked, editable scene, ADD_EDIT_DELETE_WIDGETS. */
  arrangeable: boolean;
  /** Widgets can be edited and deleted. */
  editable: boolean;
  controlsDisabled: boolean;
  onSaveLayout: (scene: Scene, breakpoint: GridBreakpoint, layout: readonly LayoutItem[]) => void;
  onEditWidget: (widget: Widget) => void;
  onDeleteWidget: (widget: Widget) => void;
}

/**
 * The scene's widgets on a responsive grid (react-grid-layout): columns per breakpoint from the
 * domain, a layout saved per breakpoint when a drag or resize ends (never while it moves).
 */
export function SceneGrid({
  scene,
  devices,
  arrangeable,
  editable,
  controlsDisabled,
  onSaveLayout,
  onEditWidget,
  onDeleteWidget,
}: SceneGridProps) {
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const layouts = useMemo(() => sceneLayouts(scene), [scene]);
  const channels = useStableChannels(scene.widgets, devices);

  // Callbacks read the latest props through a ref, so the memoised frames keep the same ones.
  const latest = useRef({ scene, layouts, onSaveLayout, onEditWidget, onDeleteWidget });
  latest.current = { scene, layouts, onSaveLayout, onEditWidget, onDeleteWidget };
  const widthRef = useRef(width);
  widthRef.current = width;
  const editWidget = useCallback((widget: Widget) => latest.current.onEditWidget(widget), []);
  const deleteWidget = useCallback((widget: Widget) => latest.current.onDeleteWidget(widget), []);

  const accountId = scene.accountId;
  const children = useMemo(
    () =>
      scene.widgets.map((widget) => (
        <div key={widget.id} className="scene-grid__item">
          <WidgetFrame
            widget={widget}
            channels={channels.get(widget.id) ?? NO_CHANNELS}
            controlsDisabled={controlsDisabled}
            confirmCommands={widgetConfirmsCommands(widget, { accountId })}
            canEdit={editable}
            draggable={arrangeable}
            onEdit={editWidget}
            onDelete={deleteWidget}
          />
        </div>
      )),
    [scene.widgets, accountId, channels, controlsDisabled, editable, arrangeable, editWidget, deleteWidget],
  );

  const stop = useCallback((layout: Layout) => {
    const { scene: current, layouts: shown, onSaveLayout: save } = latest.current;
    const breakpoint = getBreakpointFromWidth(GRID_BREAKPOINT_WIDTHS, widthRef.current) as GridBreakpoint;
    const items = layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
    // A layout never stored for this breakpoint is the one the grid derived: save it only if moved.
    if (sameLayout(shown[breakpoint], items)) return;
    save(current, breakpoint, items);
  }, []);

  return (
    <div ref={containerRef} className={`scene-grid${arrangeable ? ' is-arrangeable' : ''}`} data-testid="scene-grid">
      {mounted && (
        <Responsive
          width={width}
          layouts={layouts}
          breakpoints={GRID_BREAKPOINT_WIDTHS}
          cols={GRID_BREAKPOINT_COLUMNS}
          rowHeight={ROW_HEIGHT}
          margin={MARGIN}
          containerPadding={PADDING}
          dragConfig={{ enabled: arrangeable, handle: '.widget-frame__header', cancel: 'button, a, input, select' }}
          resizeConfig={{ enabled: arrangeable, handles: [...RESIZE_HANDLES] }}
          onDragStop={stop}
          onResizeStop={stop}
        >
          {children}
        </Responsive>
      )}
    </div>
  );
}

/**
 * Each widget's resolved channels, keeping the previous array while its content is unchanged: the
 * account tree is read again now and then, and that should not render every widget again.
 */
function useStableChannels(widgets: readonly Widget[], devices: DeviceIndex) {
  const previous = useRef(new Map<string, { key: string; channels: ResolvedChannel[] }>());
  return useMemo(() => {
    const next = new Map<string, { key: string; channels: ResolvedChannel[] }>();
    for (const widget of widgets) {
      const channels = resolveChannels(widget, devices);
      const key = JSON.stringify(channels);
      const before = previous.current.get(widget.id);
      next.set(widget.id, before && before.key === key ? before : { key, channels });
    }
    previous.current = next;
    return new Map([...next].map(([id, entry]) => [id, entry.channels]));
  }, [widgets, devices]);
}
