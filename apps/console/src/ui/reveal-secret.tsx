import { type ReactNode, useState } from 'react';
import { Choice, Field } from './form.tsx';
import { CopyButton, Dialog } from './ui.tsx';

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
          <Field label={label}>
            {(control) => (
              <div className="copy-row">
                <input {...control} className="mono" readOnly value={secret} onFocus={(e) => e.target.select()} />
                <CopyButton text={secret} label="Copy secret" />
              </div>
            )}
          </Field>
          {children}
          <Choice checked={stored} onChange={setStored}>
            I have stored the secret
          </Choice>
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
