import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { normaliseSceneName } from '@fieldlink/domain/widgets';
import { useDialogAction } from '../hooks/use-dialog-action';
import { SCENE_NAME_MAX, sceneNameError } from '../model/scenes';

/** Name a new scene or rename one. `onSubmit` rejects with the server's error, shown in the dialog. */
export function SceneNameDialog({
  title,
  initialName = '',
  submitLabel,
  onSubmit,
  onClose,
}: {
  title: string;
  initialName?: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [touched, setTouched] = useState(false);
  const { busy, serverError, run } = useDialogAction(onClose);
  const error = sceneNameError(name);
  const unchanged = initialName !== '' && normaliseSceneName(name) === normaliseSceneName(initialName);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error || busy) return;
    if (unchanged) return onClose();
    await run(() => onSubmit(normaliseSceneName(name)));
  };

  return (
    <Dialog
      title={title}
      size="sm"
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="scene-name-form" busy={busy} disabled={Boolean(error)}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id="scene-name-form" className="scene-form" onSubmit={submit} noValidate>
        <TextField
          label="Scene name"
          name="sceneName"
          data-testid="scene-name-input"
          value={name}
          maxLength={SCENE_NAME_MAX + 20}
          autoFocus
          autoComplete="off"
          aria-invalid={touched && error ? true : undefined}
          hint={touched && error ? <span className="scene-form__error">{error}</span> : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setTouched(true);
          }}
        />
        {serverError && <InlineAlert tone="error">{serverError}</InlineAlert>}
      </form>
    </Dialog>
  );
}

/** Asks before something is deleted; the server's refusal stays in the dialog. */
export function ConfirmDeleteDialog({
  children,
  onConfirm,
  onClose,
  ...question
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { busy, serverError, run } = useDialogAction(onClose);
  return (
    <ConfirmDialog
      {...question}
      busy={busy}
      error={serverError}
      onConfirm={() => void run(onConfirm)}
      onClose={onClose}
    >
      <p className="scene-form__text">{children}</p>
    </ConfirmDialog>
  );
}
