import type { TreeDevice } from '@fieldlink/api/account';
import { Badge } from '../../../components/ui/badge';
import { ZonesHead } from './sprayer-card-parts';

/** The shapes of the card's buttons, by their usual labels, so the placeholder wraps as the card does. */
const BUTTON_SHAPES = ['Spray zone 1', 'Spray zone 2', 'Test spray', 'Skip sprays for 24 h'];

/**
 * A sprayer's place on the overview while its record is read: the card's frame and size, its name,
 * and nothing to operate. Busy for screen readers until the card replaces it; `failed` when the record
 * could not be read, so it does not say it is still loading.
 */
export function SprayerPlaceholder({ device, failed }: { device: TreeDevice; failed: boolean }) {
  return (
    <article
      className="spray-card spray-card--placeholder fl-card"
      data-testid="sprayer-placeholder"
      aria-label={device.name}
      aria-busy={!failed}
    >
      <header className="spray-card__head">
        <div>
          <h2 className="spray-card__title">{device.name}</h2>
          <div className="spray-card__sub fl-muted">{device.thingName}</div>
        </div>
        <div className="spray-card__badges">
          <Badge tone={failed ? 'warning' : 'neutral'}>{failed ? 'Not read' : 'Loading'}</Badge>
        </div>
      </header>

      {/* Shapes in the place of the card's values: text of a usual card's length, drawn as bars, so each
          line wraps, and the placeholder is as tall, as the card at any width. */}
      <div className="spray-card__body" aria-hidden="true">
        <div className="spray-card__tank">
          <div className="spray-tank" />
          <div className="spray-card__level">
            <span className="spray-card__big">
              <Ghost>87.1 %</Ghost>
            </span>
            <span className="fl-muted">tank level</span>
            <span className="spray-card__marks">
              <span className="spray-card__mark spray-card__mark--refill">
                <Ghost>Refill 25 %</Ghost>
              </span>
              <span className="spray-card__mark spray-card__mark--empty">
                <Ghost>Empty 10 %</Ghost>
              </span>
            </span>
          </div>
        </div>
        <div className="spray-card__facts">
          <table className="spray-zones">
            <ZonesHead />
            <tbody>
              {['Zone 1', 'Zone 2'].map((zone) => (
                <tr key={zone}>
                  <th scope="row">
                    <span className="spray-zone-dot" />
                    {zone}
                  </th>
                  {['1', '30 s', '4 L/min'].map((value) => (
                    <td key={value}>
                      <Ghost>{value}</Ghost>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="spray-facts">
            <div>
              <dt>Next spray</dt>
              <dd>
                <Ghost>Wednesday 6:30 pm · in 7 h 20 min</Ghost>
                <span className="spray-facts__meta">
                  <Ghost>device time (Etc/UTC)</Ghost>
                </span>
                <span className="spray-facts__meta">
                  <Ghost>T-2 · 20 s per zone</Ghost>
                </span>
              </dd>
            </div>
            <div>
              <dt>Skip-spray</dt>
              <dd>
                <Ghost>Enabled · not active · skip time 24 h</Ghost>
              </dd>
            </div>
            <div>
              <dt>Pump</dt>
              <dd>
                <Ghost>0.00 bar</Ghost>
              </dd>
            </div>
            <div>
              <dt>Wind</dt>
              <dd>
                <Ghost>11.5 km/h · limit 30 km/h</Ghost>
              </dd>
            </div>
          </dl>
        </div>
      </div>

      <div className="spray-card__controls" aria-hidden="true">
        <div className="spray-card__buttons">
          {BUTTON_SHAPES.map((label) => (
            <span key={label} className="fl-button fl-button--sm fl-skeleton spray-card__shape">
              {label}
            </span>
          ))}
          <span className="fl-button fl-button--sm fl-skeleton spray-card__shape spray-card__edit">Edit schedules</span>
        </div>
      </div>

      <div className="spray-card__alarms">
        <p className="fl-muted spray-card__no-alarms">
          {failed
            ? 'This sprayer’s configuration could not be read. Reload the page to try again.'
            : 'Reading this sprayer’s configuration…'}
        </p>
      </div>
    </article>
  );
}

/** Text of a usual value's length, drawn as a shimmering bar per line and never shown or read. */
function Ghost({ children }: { children: string }) {
  return <span className="fl-skeleton spray-card__ghost">{children}</span>;
}
