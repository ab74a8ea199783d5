import type { WidgetType } from '@fieldlink/domain/widgets';
import type { WidgetDefinition } from './widget-definition';
import { chartWidget } from './chart/chart-widget';
import { tableWidget } from './table/table-widget';
import { radialWidget, compassWidget, fanWidget, signalWidget, batteryWidget } from './gauge-widgets';
import { tankWidget, tankConicalWidget, thermWidget, verticalBarWidget, progressBarWidget } from './level-widgets';
import {
  indicatorWidget,
  textAndNumberWidget,
  valueWidget,
  lagTimeWidget,
  customTextWidget,
  brewOriginalGravityWidget,
  brewSummaryWidget,
} from './value-widgets';
import {
  upDownControlWidget,
  buttonWidget,
  switchWidget,
  sliderWidget,
  sliderVerticalWidget,
  mosnixManualSprayWidget,
} from './control-widgets';

/** Every widget type of §3 and how the scene page shows, previews and edits it. */
export const WIDGET_DEFINITIONS: Record<WidgetType, WidgetDefinition> = {
  chart: chartWidget,
  table: tableWidget,
  radial: radialWidget,
  tank: tankWidget,
  tankConical: tankConicalWidget,
  therm: thermWidget,
  battery: batteryWidget,
  verticalBar: verticalBarWidget,
  signal: signalWidget,
  upDownControl: upDownControlWidget,
  button: buttonWidget,
  switch: switchWidget,
  indicator: indicatorWidget,
  textAndNumber: textAndNumberWidget,
  value: valueWidget,
  slider: sliderWidget,
  sliderVertical: sliderVerticalWidget,
  progressBar: progressBarWidget,
  mosnixManualSpray: mosnixManualSprayWidget,
  brewOriginalGravity: brewOriginalGravityWidget,
  brewSummary: brewSummaryWidget,
  lagTime: lagTimeWidget,
  customText: customTextWidget,
  compass: compassWidget,
  fan: fanWidget,
};
