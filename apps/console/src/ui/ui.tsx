import { formatStatValue } from '@statboard/sdk/format';
import { Fragment, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { StatboardError } from '../api.ts';

/** A page's heading, what it is for, and its main actions. */
export function PageHeader({
  title,
  description,
  primary,
  actions,
}: {
  title: string;
  description?: ReactNode;
  /** The page's main action (a button), when the user's role allows it. */
  primary?: { label: string; onClick: () => void } | null | false;
  actions?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Statboard`;
  }, [title]);
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p className="muted">{description}</p> : null}
      </div>
      {actions || primary ? (
        <div className="actions">
          {actions}
          {primary ? (
            <button type="button" className="primary" onClick={primary.onClick}>
              {primary.label}
            </button>
          ) : null}
        </div>
      ) : null}
    </header>
  );
}

const FORBIDDEN_HINT = 'Your role does not allow this. An admin or owner can change your role on the Users page.';

/**
 * An error as the service gave it: its message, each problem of a 422 with the field it is about (by the label
 * of the form's field, which it focuses, where `fieldOf` knows it), and its code and request id (to quote when
 * asking for help).
 */
export function ErrorNotice({
  error,
  title = 'Something went wrong',
  fieldOf,
}: {
  error: unknown;
  title?: string;
  fieldOf?: (path: string) => { id: string; label: string } | null;
}) {
  if (error === null || error === undefined) return null;
  const e = error instanceof StatboardError ? error : null;
  const message = e ? e.message : error instanceof Error ? error.message : String(error);
  return (
    <div className="notice error" role="alert">
      <strong>{title}</strong>
      <p>{message}</p>
      {e?.details ? (
        <ul>
          {Object.entries(e.details).map(([path, msgs]) => {
            const field = fieldOf?.(path);
            return (
              <li key={path}>
                {field ? (
                  <button type="button" className="link" onClick={() => focusField(field.id)}>
                    {field.label}
                  </button>
                ) : (
                  <code>{path}</code>
                )}{' '}
                {msgs.join('; ')}
              </li>
            );
          })}
        </ul>
      ) : null}
      {e?.status === 403 ? <p>{FORBIDDEN_HINT}</p> : null}
      {e ? (
        <p className="small muted">
          {e.code}
          {e.requestId ? (
            <>
              {' · request id '}
              <code>{e.requestId}</code>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

/** Moves focus to a form's field: the control itself, or the first control of a group of them. */
function focusField(id: string): void {
  const el = document.getElementById(id);
  const control = el?.matches('input, select, textarea') ? el : el?.querySelector('input, select, textarea');
  (control as HTMLElement | null | undefined)?.focus();
}

/** Space kept for what is loading, so nothing moves when it arrives. */
export function Loading({ label = 'Loading…', lines = 4 }: { label?: string; lines?: number }) {
  return (
    <div className="loading" role="status" aria-live="polite" style={{ minHeight: `${lines * 2.5}rem` }}>
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={i} className="skeleton" />
      ))}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/**
 * A modal dialog (the native `<dialog>`: focus moves into it and stays, Escape closes it), named by its heading.
 * `onClose` runs when it is dismissed; return false from `confirmClose` to keep it open.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  confirmClose,
  wide = false,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  confirmClose?: () => boolean;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const dismiss = () => {
    if (confirmClose && !confirmClose()) return;
    onClose();
  };
  return (
    <dialog
      ref={ref}
      aria-labelledby={headingId}
      className={wide ? 'wide' : undefined}
      onCancel={(e) => {
        e.preventDefault();
        dismiss();
      }}
    >
      {open ? (
        <>
          <div className="dialog-head">
            <h2 id={headingId}>{title}</h2>
            <button type="button" className="icon" aria-label="Close" onClick={dismiss}>
              ×
            </button>
          </div>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

/**
 * Asks before a change that cannot be undone, and says what will happen. Open while `subject` (what the change
 * is about) is set; Confirm runs `mutation` with it, whose pending state and error the dialog shows; Cancel
 * forgets the error and closes.
 */
export function ConfirmDialog<T>({
  title,
  subject,
  mutation,
  onClose,
  children,
  confirmLabel,
  danger = false,
}: {
  title: string;
  subject: T | null;
  mutation: { mutate: (subject: T) => void; reset: () => void; isPending: boolean; error: unknown };
  onClose: () => void;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
}) {
  const cancel = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Dialog title={title} open={subject !== null} onClose={cancel}>
      <div className="dialog-body">
        {children}
        <ErrorNotice error={mutation.error} />
        <div className="dialog-actions">
          <button type="button" onClick={cancel}>
            Cancel
          </button>
          <button
            type="button"
            className={danger ? 'danger' : 'primary'}
            disabled={mutation.isPending}
            onClick={() => subject !== null && mutation.mutate(subject)}
          >
            {mutation.isPending ? 'Working…' : confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** Copies `text`; says so for screen readers too. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          // No clipboard (an insecure origin): the text is selectable beside the button.
        }
      }}
    >
      {label}
      <span aria-live="polite" className="copied">
        {copied ? ' ✓ copied' : ''}
      </span>
    </button>
  );
}

/** Offers `data` to the browser as a file named `filename`. */
export function saveFile(data: Blob, filename: string): void {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Offers `text` as a file to save. */
export function DownloadButton({
  text,
  filename,
  label,
  type = 'application/json',
}: {
  text: string;
  filename: string;
  label: string;
  type?: string;
}) {
  return (
    <button type="button" onClick={() => saveFile(new Blob([text], { type }), filename)}>
      {label}
    </button>
  );
}

/**
 * Previous / next page: over `total` items, `perPage` a page; or, where the total is not known, with `hasMore`
 * saying whether a next page exists.
 */
export function Pager({
  page,
  perPage,
  total,
  hasMore,
  onPage,
  label,
}: {
  page: number;
  perPage: number;
  total?: number;
  hasMore?: boolean;
  onPage: (page: number) => void;
  label: string;
}) {
  const pages = total === undefined ? null : Math.max(1, Math.ceil(total / perPage));
  const next = pages === null ? (hasMore ?? false) : page < pages;
  if (pages !== null && pages <= 1) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {page}
        {pages === null || total === undefined ? null : ` of ${pages} (${formatCount(total)} in all)`}
      </span>
      <button type="button" disabled={!next} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

/** A page the user's role does not show: its heading, and why. */
export function Restricted({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <p className="notice">{children}</p>
    </>
  );
}

export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'good' | 'bad' | 'warn' | 'neutral';
  children: ReactNode;
}) {
  return <span className={`badge ${tone}`}>{children}</span>;
}

/**
 * Text that may break after its dots, colons and slashes (a hostname, an address, a URL) rather than anywhere
 * or not at all: "creative.example.com:25565" wraps as "creative.example.com:" and "25565".
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[.:/])/);
  return parts.map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? <wbr /> : null}
    </Fragment>
  ));
}

/** Whether a server or webhook is enabled, as a badge. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? <Badge tone="good">enabled</Badge> : <Badge tone="warn">disabled</Badge>;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A time as the reader's locale writes it, in words (for names and sentences). */
export function dateTime(at: string): string {
  return dateTimeFormat.format(new Date(at));
}

/** A time as the reader's locale writes it, in a `<time>` element; "never" for null. */
export function When({
  at,
  dateOnly: onlyDate = false,
  never = 'never',
}: {
  at: string | null | undefined;
  dateOnly?: boolean;
  never?: string;
}) {
  if (!at) return <span className="muted">{never}</span>;
  const d = new Date(at);
  return (
    <time dateTime={at} title={d.toISOString()}>
      {(onlyDate ? dateOnly : dateTimeFormat).format(d)}
    </time>
  );
}

/** "3 min ago", for recent times. */
export function ago(at: string | null | undefined): string {
  if (!at) return 'never';
  const s = Math.round((Date.now() - new Date(at).getTime()) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** A count as every page writes it ("1,234"), the digits of statistic values (`formatStatValue`). */
export function formatCount(n: number): string {
  return formatStatValue(n, 'count');
}
