import type uPlot from 'uplot';
import { formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import type { ChartLine } from './log-chart';
import { valueNear } from './plot-series';
import { chartNumberFormat } from './plot-theme';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The hover read-out: the time under the cursor in the page's clock and each shown line's value
 * there with its unit, on the side of the cursor away from the plot's nearer edge.
 */
export function chartReadout(lines: readonly ChartLine[], seriesOf: () => ReadonlyMap<string, number[]>, clock: Clock) {
  const element = document.createElement('div');
  element.className = 'log-chart__readout';
  element.hidden = true;
  const show = (plot: uPlot) => {
    const idx = plot.cursor.idx;
    if (idx == null || plot.cursor.left == null || plot.cursor.left < 0) {
      element.hidden = true;
      return;
    }
    const t = plot.data[0][idx];
    if (t === undefined) return;
    const rows: string[] = [];
    for (const [code, [seriesIndex]] of seriesOf()) {
      const series = plot.series[seriesIndex!];
      const line = lines.find((l) => l.code === code);
      if (!series?.show || !line) continue;
      const value = valueNear(plot.data[0], plot.data[seriesIndex!]!, t);
      const shown =
        value === null ? '–' : chartNumberFormat.format(value) + (line.units ? ` ${escapeHtml(line.units)}` : '');
      rows.push(
        `<span class="log-chart__readout-row"><i style="background:${line.colour}"></i>${escapeHtml(line.label)}<b>${shown}</b></span>`,
      );
    }
    element.innerHTML = `<time>${formatDateTime(t * 1000, clock)}</time>${rows.join('')}`;
    element.hidden = false;
    const overWidth = plot.over.clientWidth;
    const left = plot.cursor.left;
    element.style.left = left > overWidth / 2 ? '' : `${left + 12}px`;
    element.style.right = left > overWidth / 2 ? `${overWidth - left + 12}px` : '';
  };
  return { element, show };
}
