import { useState, type FormEvent } from 'react';
import type { PhoneAnswer } from '@fieldlink/api/phone';
import { PHONE_RULE_MESSAGE, isE164Phone, phoneFromInput } from '@fieldlink/domain/sms';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TrashIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { serverMessageOr } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { usePhone } from '../api/get-phone';
import { useRemovePhoneMutation } from '../api/delete-phone';
import { useVerifyPhoneMutation } from '../api/post-phone-verify';
import { useSendPhoneCodeMutation } from '../api/put-phone';

/** Step one: the number, turned into E.164 here, and a code sent to it. */
function NumberForm({ onCancel }: { onCancel?: () => void }) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const send = useSendPhoneCodeMutation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const phone = phoneFromInput(typed);
    if (!isE164Phone(phone)) {
      setProblem(PHONE_RULE_MESSAGE);
      return;
    }
    setProblem(null);
    send.mutate({ phone }, { onSuccess: () => onCancel?.() });
  };
  return (
    <form className="security-form" onSubmit={onSubmit} noValidate>
      <TextField
        label="Mobile number"
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+44 7700 900123"
        hint="With the country code. We send a 6-digit code to check it."
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      {problem && <InlineAlert tone="error">{problem}</InlineAlert>}
      {send.isError && !send.isPending && (
        <InlineAlert tone="error">{serverMessageOr(send.error, 'The code could not be sent.')}</InlineAlert>
      )}
      <div className="security-actions">
        <Button type="submit" variant="primary" busy={send.isPending} disabled={!typed.trim()}>
          Send code
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}

/** Step two: the code from the SMS. */
function CodeForm({ pending }: { pending: NonNullable<PhoneAnswer['pending']> }) {
  const [code, setCode] = useState('');
  const verify = useVerifyPhoneMutation();
  const resend = useSendPhoneCodeMutation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(
      { code: code.replace(/\s/g, '') },
      { onSuccess: () => showToast('success', `SMS alerts will go to ${pending.phone}.`) },
    );
  };
  const failure = verify.isError && !verify.isPending ? verify.error : resend.isError ? resend.error : null;
  return (
    <form className="security-form" onSubmit={onSubmit} noValidate>
      <p>
        We sent a code to <strong>{pending.phone}</strong>. It expires in 10 minutes.
      </p>
      <TextField
        label="Code from the SMS"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      {failure && <InlineAlert tone="error">{serverMessageOr(failure, 'The code could not be checked.')}</InlineAlert>}
      <div className="security-actions">
        <Button
          type="submit"
          variant="primary"
          busy={verify.isPending}
          disabled={!/^\d{6}$/.test(code.replace(/\s/g, ''))}
        >
          Verify
        </Button>
        <Button
          busy={resend.isPending}
          onClick={() =>
            resend.mutate(
              { phone: pending.phone },
              { onSuccess: () => showToast('success', 'A new code has been sent.') },
            )
          }
        >
          Send a new code
        </Button>
      </div>
    </form>
  );
}

/**
 * Account menu → Security → "Phone for SMS alerts" (issue 39 item 4): add a number, enter the code
 * its SMS carried, see it verified, change or remove it. Shown only where the server has SMS.
 */
export function PhoneSection() {
  const phone = usePhone();
  const remove = useRemovePhoneMutation();
  const [changing, setChanging] = useState(false);

  let body;
  if (phone.isPending) body = null;
  else if (phone.isError) {
    body = (
      <InlineAlert tone="error">{serverMessageOr(phone.error, 'Your phone number could not be read.')}</InlineAlert>
    );
  } else {
    const { phone: verified, pending } = phone.data;
    body = (
      <>
        {verified ? (
          <div className="security-phone">
            <span>
              SMS alerts go to <strong>{verified}</strong>
            </span>
            <Badge tone="success" dot>
              Verified
            </Badge>
          </div>
        ) : (
          !pending && (
            <p>
              Get an SMS when an alarm of your devices is raised, naming the device and the value, with a link to its
              page.
            </p>
          )
        )}
        {pending && !changing ? (
          <CodeForm pending={pending} />
        ) : verified && !changing ? null : (
          <NumberForm onCancel={verified || pending ? () => setChanging(false) : undefined} />
        )}
        {remove.isError && !remove.isPending && (
          <InlineAlert tone="error">{serverMessageOr(remove.error, 'The number could not be removed.')}</InlineAlert>
        )}
        {(verified || pending) && !changing && (
          <div className="security-actions">
            <Button onClick={() => setChanging(true)}>{verified ? 'Change number' : 'Use another number'}</Button>
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => showToast('success', 'No more SMS alerts will be sent to you.'),
                })
              }
            >
              <TrashIcon size={14} /> Remove
            </Button>
          </div>
        )}
      </>
    );
  }
  return (
    <section className="fl-card security-card" aria-labelledby="phone-title">
      <h2 id="phone-title">Phone for SMS alerts</h2>
      {body}
    </section>
  );
}
