import { useMemo, useState } from 'react';
import type { RetailProduct } from '@fieldlink/api/inventory';
import { chartAxisLabel, chartColour } from '@fieldlink/domain/chart';
import { legendNames } from '@fieldlink/domain/chart-legend';
import {
  CHART_SELECTION_OPTIONS,
  chartMaximum,
  selectChartProducts,
  type ChartSelectionOption,
} from '@fieldlink/domain/retail';
import { LogChart } from '../../../components/charts/log-chart';
import { alignChannelLogs } from '../../../components/charts/chart-series';
import { useStoreDeviceLogs } from '../api/get-store-device-logs';
import { useLoadFailure } from '../hooks/use-load-failure';

const OPTION_LABELS: Record<ChartSelectionOption, string> = {
  EMPTY: 'Empty',
  LOW: 'Low',
  CUSTOM: 'Custom',
  LOWEST_10_STOCK: 'Lowest 10 stock',
  HIGHEST_5_SALE_PER_HOUR: 'Highest 5 sales / h',
};

/** The store's stock over 90 days for a selection of its products (§3 chart selection). */
export function StoreChart({ groupId, products }: { groupId: string; products: readonly RetailProduct[] }) {
  const [option, setOption] = useState<ChartSelectionOption>('LOWEST_10_STOCK');
  const [custom, setCustom] = useState<string[]>([]);
  const selected = useMemo(() => selectChartProducts(products, option, custom), [products, option, custom]);
  const ids = useMemo(() => selected.map((product) => product.id), [selected]);
  const logs = useStoreDeviceLogs(groupId, ids);
  useLoadFailure(logs.isError);
  const aligned = useMemo(
    () =>
      alignChannelLogs(
        ids.map((id) => ({ key: id, log: logs.data?.products[id], binWidth: logs.data?.binWidth ?? 1 })),
      ),
    [ids, logs.data],
  );
  // Two shelves may hold the same product: the legend then names the shelf too.
  const labels = legendNames(
    selected.map((product) => ({ name: product.name, source: product.deviceName })),
    false,
  );
  const lines = selected.map((product, index) => ({
    code: product.id,
    label: labels[index]!,
    colour: chartColour(index),
  }));
  const max = chartMaximum(selected);
  const onToggle = (id: string) =>
    setCustom((current) => (current.includes(id) ? current.filter((chosen) => chosen !== id) : [...current, id]));

  return (
    <section className="fl-card inv-chart-card inv-store-chart" data-testid="store-chart">
      <header className="inv-card-head">
        <h2>Stock, last 90 days</h2>
        <div className="fl-segments" role="group" aria-label="Products shown">
          {CHART_SELECTION_OPTIONS.map((choice) => (
            <button
              key={choice}
              type="button"
              className={`fl-segment${option === choice ? ' is-active' : ''}`}
              aria-pressed={option === choice}
              onClick={() => setOption(choice)}
            >
              {OPTION_LABELS[choice]}
            </button>
          ))}
        </div>
      </header>
      {option === 'CUSTOM' && (
        <fieldset className="inv-custom">
          <legend className="fl-muted">Choose products</legend>
          {products.map((product) => (
            <label key={product.id} className="inv-custom__item">
              <input type="checkbox" checked={custom.includes(product.id)} onChange={() => onToggle(product.id)} />
              {product.name}
              <span className="fl-muted"> · {product.deviceName}</span>
            </label>
          ))}
        </fieldset>
      )}
      {selected.length === 0 ? (
        <p className="inv-empty fl-muted" data-testid="chart-empty">
          {option === 'CUSTOM' ? 'Choose products to chart.' : `No product is ${OPTION_LABELS[option].toLowerCase()}.`}
        </p>
      ) : (
        <>
          <ul className="inv-legend" data-testid="chart-legend">
            {lines.map((line) => (
              <li key={line.code}>
                <span className="inv-legend__swatch" style={{ background: line.colour }} />
                {line.label}
              </li>
            ))}
          </ul>
          <div className="inv-chart-area">
            {logs.data && (
              <LogChart
                logs={aligned}
                lines={lines}
                start={logs.data.start}
                end={logs.data.end}
                height={320}
                axes={[{ scale: 'y', side: 'left', label: chartAxisLabel('Stock', 'units'), range: { min: 0, max } }]}
              />
            )}
          </div>
          <p className="fl-muted inv-chart-note" data-testid="chart-maximum">
            Scale to {max} units (11 per slot of the largest product shown).
          </p>
        </>
      )}
    </section>
  );
}
