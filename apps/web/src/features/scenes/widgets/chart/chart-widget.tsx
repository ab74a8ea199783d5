import { Suspense, lazy } from 'react';
import { WIDGET_DEFAULTS, widgetRole } from '@fieldlink/domain/widgets';
import type { WidgetDefinition, WidgetViewProps } from '../widget-definition';
import { PickerIcon } from '../widget-kit';

// uPlot and the chart code load only when a scene shows a chart.
const ChartView = lazy(async () => ({ default: (await import('./chart-view')).ChartView }));

function ChartIcon() {
  return (
    <PickerIcon>
      <path d="M4 4 V28 H44" fill="none" stroke="currentColor" strokeOpacity="0.45" strokeWidth="1.5" />
      <path d="M6 22 L14 15 L21 19 L29 9 L36 13 L44 6" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M6 26 L15 23 L23 25 L31 20 L44 21" fill="none" stroke="#CA9D43" strokeWidth="1.5" />
    </PickerIcon>
  );
}

function ChartWidgetView(props: WidgetViewProps) {
  return (
    <Suspense fallback={<div className="chart-widget" style={{ width: props.width, height: props.height }} />}>
      <ChartView {...props} />
    </Suspense>
  );
}

/** §3 Chart widget: logs of channels of several devices over a chosen span, live at its end. */
export const chartWidget: WidgetDefinition = {
  type: 'chart',
  label: WIDGET_DEFAULTS.chartName,
  description: 'Logs of channels from several devices over time, with axes, plot lines and live points.',
  role: widgetRole('chart'),
  Icon: ChartIcon,
  sections: ['channels', 'yAxis', 'annotations'],
  maxChannels: 32,
  View: ChartWidgetView,
};
