import { widgetRole } from '@fieldlink/domain/widgets';
import type { WidgetDefinition } from '../widget-definition';
import { PickerIcon } from '../widget-kit';
import { TableView } from './table-view';

function TableIcon() {
  return (
    <PickerIcon>
      <rect x="4" y="4" width="40" height="24" rx="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M4 11 H44" stroke="currentColor" strokeWidth="2" />
      <path d="M4 17.5 H44 M4 23 H44 M19 4 V28" stroke="currentColor" strokeOpacity="0.45" strokeWidth="1.2" />
    </PickerIcon>
  );
}

/** §3 Table widget: logged values of its channels as rows, newest first, live rows on top. */
export const tableWidget: WidgetDefinition = {
  type: 'table',
  label: 'Table',
  description: 'Logged values of channels as rows, newest first, with live rows added on top.',
  role: widgetRole('table'),
  Icon: TableIcon,
  sections: ['channels'],
  maxChannels: 32,
  View: TableView,
};
