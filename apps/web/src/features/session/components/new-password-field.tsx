import type { ChangeEvent } from 'react';
import { NEW_PASSWORD_MIN_LENGTH } from '@fieldlink/api/session';
import { TextField } from '../../../components/ui/text-field';

/** The password a user chooses (sign-up, reset), with the server's minimum as its hint. */
export function NewPasswordField(props: {
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      {...props}
      type="password"
      autoComplete="new-password"
      hint={`At least ${NEW_PASSWORD_MIN_LENGTH} characters. A short phrase is easier to remember and harder to guess.`}
    />
  );
}
