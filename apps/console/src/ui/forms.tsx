import { type ReactNode, useId, useState } from 'react';
import { CopyButton, Dialog, ErrorNotice } from './ui.tsx';

/**
 * The form of a dialog: its fields, the error of the last submit, and its actions (Cancel when `onCancel` is
 * given, and the submit button, which says `pendingLabel` while the submit runs).
 */
export function DialogForm({
  onSubmit,
  error,
  errorTitle,
  pending,
  submitLabel,
  pendingLabel = 'Saving…',
  submitDisabled = false,
  onCancel,
  children,
}: {
  onSubmit: () => void;
  error: unknown;
  errorTitle: string;
  pending: boolean;
  submitLabel: string;
  pendingLabel?: string;
  submitDisabled?: boolean;
  onCancel?: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="dialog-body"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <ErrorNotice error={error} title={errorTitle} />
      <div className="dialog-actions">
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="primary" disabled={pending || submitDisabled}>
          {pending ? pendingLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * A secret shown once (an API key's, a webhook's signing secret): copy it, tick that it is stored, then Done.
 * Closing before that asks for a confirmation. `children` come after the secret (the mod's config).
 */
export function RevealSecretDialog({
  title,
  open,
  label,
  secret,
  onClose,
  children,
}: {
  title: string;
  open: boolean;
  label: string;
  secret: string;
  onClose: () => void;
  children?: ReactNode;
}) {
  const id = useId();
  const [stored, setStored] = useState(false);
  const close = () => {
    setStored(false);
    onClose();
  };
  return (
    <Dialog
      title={title}
      open={open}
      onClose={close}
      confirmClose={() =>
        stored || window.confirm('The secret will not be shown again. Close without having stored it?')
      }
      wide
    >
      {open ? (
        <div className="dialog-body">
          <p className="notice warn">
            Copy the secret now: this is the only time it is shown. Statboard keeps only a hash of it.
          </p>
          <label htmlFor={`${id}-secret`}>{label}</label>
          <div className="copy-row">
            <input id={`${id}-secret`} className="mono" readOnly value={secret} onFocus={(e) => e.target.select()} />
            <CopyButton text={secret} label="Copy secret" />
          </div>
          {children}
          <label className="choice">
            <input type="checkbox" checked={stored} onChange={(e) => setStored(e.target.checked)} />I have stored the
            secret
          </label>
          <div className="dialog-actions">
            <button type="button" className="primary" disabled={!stored} onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
