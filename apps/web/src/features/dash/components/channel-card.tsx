import { memo, type ReactNode } from 'react';
import { isChannelStale } from '@fieldlink/domain/staleness';
import {
  channelValueParts,
  channelValueType,
  describeChannel,
  formatChannelValue,
} from '@fieldlink/domain/channel-presentation';
import { Badge } from '../../../components/ui/badge';
import { useNow } from '../../../lib/clock';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { formatAge } from '../../../lib/format-time';
import { useLatestValue } from '../../../lib/realtime/use-realtime';
import { ChannelWrite } from './channel-write';
import { usePageClock } from '../../../lib/page-time-zone';

export interface ChannelCardProps {
  thingName: string;
  /** The device's name, as a write's confirmation names it. */
  deviceName: string;
  code: string;
  name?: string | null;
  /** The unit the device gives the channel. */
  units?: string | null;
  uploadInterval: number | null;
  logInterval: number | null;
  /** Shows the write control of setpoints, relays and flags. */
  writable?: boolean;
  /** The channel's alarm control, drawn in the footer. */
  alarm?: ReactNode;
}

/**
 * One channel: its value and how fresh it is. The value and the age read the store separately, so a
 * tick of the clock re-renders only the age line and a new value only this card.
 */
export const ChannelCard = memo(function ChannelCard({
  thingName,
  deviceName,
  code,
  name,
  units,
  uploadInterval,
  logInterval,
  writable = false,
  alarm,
}: ChannelCardProps) {
  const channel = describeChannel({ code, name, units });
  return (
    <article className="channel-card" aria-label={channel.title}>
      <header className="channel-card__head">
        <div className="channel-card__names">
          <span className="channel-card__title">{channel.title}</span>
          <span className="channel-card__kind">{channel.kind}</span>
        </div>
        <span className="channel-card__code">{channel.title === channel.displayName ? code : channel.displayName}</span>
      </header>
      <ChannelValue thingName={thingName} code={code} units={channel.units} />
      {writable && (
        <ChannelWrite
          thingName={thingName}
          deviceName={deviceName}
          code={code}
          title={channel.title}
          units={channel.units}
        />
      )}
      <footer className="channel-card__foot">
        {alarm ?? <span />}
        <ChannelAge thingName={thingName} code={code} uploadInterval={uploadInterval} logInterval={logInterval} />
      </footer>
    </article>
  );
});

function ChannelValue({ thingName, code, units }: { thingName: string; code: string; units: string }) {
  const latest = useLatestValue(thingName, code);
  const testId = `channel-value-${code}`;
  if (!latest) {
    return (
      <div className="channel-card__value is-empty" data-testid={testId}>
        —
      </div>
    );
  }
  const { text, units: shownUnits } = channelValueParts({ code, units }, latest.value);
  if (channelValueType(code, units) === 'state') {
    return (
      <div className="channel-card__value">
        <span className={`channel-card__state ${latest.value !== 0 ? 'is-on' : 'is-off'}`} data-testid={testId}>
          {text}
        </span>
      </div>
    );
  }
  return (
    <div className="channel-card__value-wrap">
      <div className="channel-card__value" data-testid={testId}>
        {text}
        {shownUnits && <span className="channel-card__units"> {shownUnits}</span>}
      </div>
      {(latest.tempSp !== undefined || latest.diff !== undefined) && (
        <div className="channel-card__extra">
          {latest.tempSp !== undefined && <span>SP {formatChannelValue({ code, units }, latest.tempSp)}</span>}
          {latest.diff !== undefined && <span>Δ {formatChannelValue({ code, units }, latest.diff)}</span>}
        </div>
      )}
    </div>
  );
}

function ChannelAge({
  thingName,
  code,
  uploadInterval,
  logInterval,
}: {
  thingName: string;
  code: string;
  uploadInterval: number | null;
  logInterval: number | null;
}) {
  const latest = useLatestValue(thingName, code);
  const now = useNow();
  const clock = usePageClock();
  if (!latest) return <span className="channel-card__age">No data yet</span>;
  const stale = isChannelStale({ lastT: latest.t, uploadInterval, logInterval, now });
  return (
    <span className="channel-card__age" title={formatDateTime(latest.t, clock)}>
      {stale && <Badge tone="warning">Stale</Badge>}
      <time dateTime={new Date(latest.t).toISOString()}>{formatAge(latest.t, now)}</time>
    </span>
  );
}
