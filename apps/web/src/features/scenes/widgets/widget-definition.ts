import type { ComponentType } from 'react';
import type { Widget, WidgetFields } from '@fieldlink/api/scenes';
import type { WidgetRole, WidgetType } from '@fieldlink/domain/widgets';

/**
 * The contract between the scene page (grid, frame, editor dialog) and each widget type. The page
 * resolves a widget's channels against the account tree and hands them to the type's view; the view
 * reads live values itself (lib/realtime hooks), so a value change re-renders only that widget.
 */

/** A widget channel resolved against the account tree. */
export interface ResolvedChannel {
  deviceId: string;
  /** Null when the device is no longer in the caller's tree. */
  thingName: string | null;
  deviceName: string;
  code: string;
  /** The channel's display name: the widget channel's own name, else the device's, else Aux_n style. */
  name: string;
  /** The unit the device gives the channel, or empty. */
  units: string;
  legendVisibility: boolean;
}

export interface WidgetViewProps {
  widget: Widget;
  channels: readonly ResolvedChannel[];
  /** Pixel size of the widget body (inside the frame's title bar). */
  width: number;
  height: number;
  /** Controls are disabled: the scene is read-only for this user, or the device is gone. */
  readOnly: boolean;
  /** A control asks before each command (`widgetConfirmsCommands`: select before operate). */
  confirmCommands: boolean;
}

/** The widget fields an editor changes: `PUT /widget`'s body without the scene's ids. */
export type WidgetDraft = WidgetFields;

/** Sections the shared editor dialog shows for a type, in this order. */
export type EditorSection =
  | 'channels'
  | 'range'
  | 'arcSegments'
  | 'colours'
  | 'switchColours'
  | 'units'
  | 'increment'
  | 'text'
  | 'yAxis'
  | 'annotations'
  /** "No confirmation": the control's commands are sent without asking (issue 36 item 1). */
  | 'confirmation';

export interface WidgetEditorProps {
  draft: WidgetDraft;
  onChange: (draft: WidgetDraft) => void;
}

export interface WidgetDefinition {
  type: WidgetType;
  /** Shown in the add-widget picker and as the default name. */
  label: string;
  description: string;
  role: WidgetRole;
  /** Picker preview (an inline SVG). */
  Icon: ComponentType;
  sections: readonly EditorSection[];
  /** How many channels the widget takes (0 for custom text). */
  maxChannels: number;
  View: ComponentType<WidgetViewProps>;
  /** A type's own editor section, shown after the shared ones. */
  Editor?: ComponentType<WidgetEditorProps>;
}
