import { useState, type FormEvent } from 'react';
import type { NotificationPreferencesAnswer, NotificationPreferencesBody } from '@fieldlink/api/notifications';
import { ALARM_SEVERITIES, type AlarmSeverity } from '@fieldlink/domain/alarms';
import {
  NOTIFICATION_CHANNELS,
  channelName,
  notificationPreferencesProblem,
  type ChannelChoice,
  type NotificationChannel,
} from '@fieldlink/domain/notification-routing';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';

const CHOICE_LABELS: Record<ChannelChoice, string> = {
  all: 'Every alarm',
  severities: 'Only these severities',
  none: 'None',
};

const CHANNEL_TITLES: Record<NotificationChannel, string> = { email: 'E-mail', push: 'Push', sms: 'SMS' };

export interface NotificationPreferencesFormProps {
  preferences: NotificationPreferencesAnswer;
  /** The zone new quiet hours are read in: the user's own clock's. */
  timeZone: string;
  saving: boolean;
  onSave: (body: NotificationPreferencesBody) => void;
}

/**
 * Which alarms reach the user on which channel, and their quiet hours (issue 39 item 5). A channel
 * that cannot reach the user says why, and SMS cannot be chosen until it can.
 */
export function NotificationPreferencesForm({
  preferences,
  timeZone,
  saving,
  onSave,
}: NotificationPreferencesFormProps) {
  const [channels, setChannels] = useState(preferences.channels);
  const [quiet, setQuiet] = useState(preferences.quietHours !== null);
  const [from, setFrom] = useState(preferences.quietHours?.from ?? '22:00');
  const [to, setTo] = useState(preferences.quietHours?.to ?? '07:00');
  const zone = preferences.quietHours?.timeZone ?? timeZone;
  const [problem, setProblem] = useState<string | null>(null);

  const setChoice = (channel: NotificationChannel, alarms: ChannelChoice) =>
    setChannels((current) => ({ ...current, [channel]: { ...current[channel], alarms } }));
  const toggleSeverity = (channel: NotificationChannel, severity: AlarmSeverity) =>
    setChannels((current) => {
      const chosen = current[channel].severities;
      const severities = chosen.includes(severity)
        ? chosen.filter((item) => item !== severity)
        : ALARM_SEVERITIES.filter((item) => item === severity || chosen.includes(item));
      return { ...current, [channel]: { ...current[channel], severities } };
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body: NotificationPreferencesBody = {
      channels,
      quietHours: quiet ? { from, to, timeZone: zone } : null,
    };
    const found = notificationPreferencesProblem(body);
    setProblem(found);
    if (!found) onSave(body);
  };

  return (
    <form className="notifications-form" onSubmit={onSubmit} noValidate>
      {NOTIFICATION_CHANNELS.map((channel) => {
        const reach = preferences.reach[channel];
        const locked = channel === 'sms' && !reach.available;
        const choice = channels[channel];
        return (
          <fieldset key={channel} className="notifications-channel">
            <legend>{CHANNEL_TITLES[channel]}</legend>
            {reach.reason && <p className="fl-muted notifications-reason">{reach.reason}</p>}
            <div className="notifications-choices" role="radiogroup" aria-label={`Alarms by ${channelName(channel)}`}>
              {(['all', 'severities', 'none'] as const).map((alarms) => (
                <label key={alarms} className="notifications-choice">
                  <input
                    type="radio"
                    name={`channel-${channel}`}
                    value={alarms}
                    checked={choice.alarms === alarms}
                    disabled={locked && alarms !== 'none'}
                    onChange={() => setChoice(channel, alarms)}
                  />
                  {CHOICE_LABELS[alarms]}
                </label>
              ))}
            </div>
            {choice.alarms === 'severities' && (
              <div
                className="notifications-severities"
                aria-label={`Severities by ${channelName(channel)}`}
                role="group"
              >
                {ALARM_SEVERITIES.map((severity) => (
                  <label key={severity} className="notifications-choice">
                    <input
                      type="checkbox"
                      checked={choice.severities.includes(severity)}
                      onChange={() => toggleSeverity(channel, severity)}
                    />
                    {severity}
                  </label>
                ))}
              </div>
            )}
          </fieldset>
        );
      })}
      <fieldset className="notifications-channel">
        <legend>Quiet hours</legend>
        <label className="notifications-choice">
          <input type="checkbox" checked={quiet} onChange={(event) => setQuiet(event.target.checked)} />
          No push or SMS during these hours unless I am on call (e-mail still arrives)
        </label>
        {quiet && (
          <div className="notifications-quiet">
            <label className="fl-field">
              <span className="fl-field__label">From</span>
              <input className="fl-input" type="time" value={from} onChange={(event) => setFrom(event.target.value)} />
            </label>
            <label className="fl-field">
              <span className="fl-field__label">To</span>
              <input className="fl-input" type="time" value={to} onChange={(event) => setTo(event.target.value)} />
            </label>
            <span className="fl-muted">{zone}</span>
          </div>
        )}
      </fieldset>
      {problem && <InlineAlert tone="error">{problem}</InlineAlert>}
      <div className="notifications-actions">
        <Button type="submit" variant="primary" busy={saving}>
          Save notification settings
        </Button>
      </div>
    </form>
  );
}
