import { useId } from 'react';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { usePutSecondFactorMutation, useSecondFactorRequirement } from '../api/second-factor';

/**
 * An account's "Require a second factor" switch (issue 38 item 2), on its root group's panel for
 * administrators: users of the account and its customers without a second factor set one up at their
 * next sign-in.
 */
export function SecondFactorRequirement({ accountId, accountName }: { accountId: string; accountName: string }) {
  const hintId = useId();
  const requirement = useSecondFactorRequirement(accountId);
  const put = usePutSecondFactorMutation();
  const required = put.isPending ? put.variables.required : (requirement.data?.required ?? false);
  const onToggle = () =>
    put.mutate(
      { accountId, required: !required },
      {
        onSuccess: (answer) =>
          showToast(
            'success',
            answer.required
              ? `${accountName} now requires a second factor.`
              : `${accountName} no longer requires a second factor.`,
          ),
        onError: (failure) => showToast('error', serverErrorMessage(failure)),
      },
    );
  return (
    <section className="detail-section second-factor-requirement" aria-labelledby={`${hintId}-title`}>
      <h3 id={`${hintId}-title`}>Sign-in security</h3>
      {requirement.isError ? (
        <InlineAlert tone="error">{serverErrorMessage(requirement.error)}</InlineAlert>
      ) : (
        <>
          <div className="second-factor-requirement__field">
            <span>Require a second factor</span>
            <button
              type="button"
              role="switch"
              aria-checked={required}
              aria-label="Require a second factor"
              aria-describedby={hintId}
              className={`fl-switch${required ? ' is-on' : ''}`}
              disabled={requirement.isPending || put.isPending}
              onClick={onToggle}
            >
              <span className="fl-switch__knob" />
            </button>
          </div>
          <p className="fl-muted" id={hintId}>
            {required
              ? 'Everyone in this account and its customers’ accounts signs in with a second factor. Those without one set it up at their next sign-in, and nobody can turn theirs off.'
              : 'When on, everyone in this account and its customers’ accounts must sign in with a second factor; those without one set it up at their next sign-in.'}
          </p>
          {requirement.data?.requiredAbove && (
            <InlineAlert tone="info">
              An account above this one already requires a second factor of its users.
            </InlineAlert>
          )}
        </>
      )}
    </section>
  );
}
