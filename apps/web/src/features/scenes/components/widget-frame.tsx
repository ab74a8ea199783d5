import { Component, memo, useRef, useState, type ReactNode } from 'react';
import type { Widget } from '@fieldlink/api/scenes';
import { PencilIcon, TrashIcon, WarningIcon } from '../../../components/ui/icons';
import { useElementSize } from '../hooks/use-element-size';
import { widgetTitle } from '../model/resolve-channels';
import { WIDGET_DEFINITIONS } from '../widgets/registry';
import type { ResolvedChannel } from '../widgets/widget-definition';
import { GripIcon, MoreIcon } from './scene-icons';
import { Menu } from '../../../components/ui/menu';

export interface WidgetFrameProps {
  widget: Widget;
  channels: readonly ResolvedChannel[];
  /** Controls are disabled (no dashboard access). A widget whose device is gone is disabled anyway. */
  controlsDisabled: boolean;
  /** Controls ask before each command (select before operate). */
  confirmCommands: boolean;
  /** The widget's menu (Edit, Delete) is offered. */
  canEdit: boolean;
  /** The title bar is a drag handle. */
  draggable: boolean;
  onEdit: (widget: Widget) => void;
  onDelete: (widget: Widget) => void;
}

/**
 * One widget on the grid: its title bar (drag handle, title, menu) and its type's view sized to the
 * body. Memoised: dragging or resizing another widget, or a layout save, does not render it again;
 * its own live values re-render only its view (the view reads them from the real-time store).
 */
export const WidgetFrame = memo(function WidgetFrame({
  widget,
  channels,
  controlsDisabled,
  confirmCommands,
  canEdit,
  draggable,
  onEdit,
  onDelete,
}: WidgetFrameProps) {
  const [bodyRef, size] = useElementSize<HTMLDivElement>();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const definition = WIDGET_DEFINITIONS[widget.type];
  const title = widgetTitle(widget, channels);
  const deviceGone = channels.some((channel) => channel.thingName === null);
  const View = definition?.View;

  return (
    <article
      className={`widget-frame${draggable ? ' is-draggable' : ''}${title ? '' : ' is-untitled'}`}
      data-testid="widget-frame"
      data-widget-id={widget.id}
      data-widget-type={widget.type}
      aria-label={title || definition?.label || 'Widget'}
    >
      {(title || canEdit || draggable) && (
        <header className="widget-frame__header">
          {draggable && (
            <span
              className="widget-frame__handle"
              data-testid="widget-drag-handle"
              title="Drag to move"
              aria-hidden="true"
            >
              <GripIcon size={15} />
            </span>
          )}
          <h3 className="widget-frame__title" title={title}>
            {title}
          </h3>
          {deviceGone && (
            <span className="widget-frame__warning" title="A device of this widget is no longer available">
              <WarningIcon size={14} />
            </span>
          )}
          {canEdit && (
            <button
              ref={menuButton}
              type="button"
              className="widget-frame__menu-button"
              aria-label={`Widget options: ${title || definition?.label || widget.type}`}
              aria-haspopup="menu"
              aria-expanded={menuOpen}
              data-testid="widget-menu-button"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MoreIcon size={16} />
            </button>
          )}
        </header>
      )}
      <div ref={bodyRef} className="widget-frame__body">
        {!View ? (
          <div className="widget-frame__problem">Unknown widget type “{widget.type}”.</div>
        ) : (
          size.width > 0 &&
          size.height > 0 && (
            <WidgetBoundary resetKey={widget}>
              <View
                widget={widget}
                channels={channels}
                width={size.width}
                height={size.height}
                readOnly={controlsDisabled || deviceGone}
                confirmCommands={confirmCommands}
              />
            </WidgetBoundary>
          )
        )}
      </div>
      {menuOpen && menuButton.current && (
        <Menu
          place={menuButton.current}
          label="Widget options"
          onClose={() => setMenuOpen(false)}
          items={[
            { label: 'Edit', icon: <PencilIcon size={15} />, onSelect: () => onEdit(widget) },
            { label: 'Delete', icon: <TrashIcon size={15} />, tone: 'danger', onSelect: () => onDelete(widget) },
          ]}
        />
      )}
    </article>
  );
});

/** A widget view that throws shows a message in its frame; the rest of the scene keeps working. */
class WidgetBoundary extends Component<{ resetKey: unknown; children: ReactNode }, { failed: boolean; key: unknown }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { resetKey: unknown }, state: { failed: boolean; key: unknown }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  override render() {
    if (this.state.failed) return <div className="widget-frame__problem">This widget could not be shown.</div>;
    return this.props.children;
  }
}
