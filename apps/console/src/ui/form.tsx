import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useContext,
  useId,
  useRef,
} from 'react';
import { StatboardError } from '../api.ts';
import { ErrorNotice } from './ui.tsx';

/**
 * What the fields of a form share: the error of its last submit, and the fields by name (their path in a 422's
 * `details`), so that the form's error lists each problem under the field's label, linked to the field.
 */
interface FormState {
  error: unknown;
  fields: Map<string, { id: string; label: string }>;
}

const FormContext = createContext<FormState | null>(null);

/** True when `path` (a key of a 422's `details`) is the field `name` or inside it (`scopes.1`, `port`). */
function within(path: string, name: string): boolean {
  return path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`);
}

/** The messages of a 422 for the field `name` (and what lies inside it); none for other errors. */
export function fieldErrors(error: unknown, name: string | undefined): string[] {
  if (!name || !(error instanceof StatboardError) || !error.details) return [];
  return Object.entries(error.details)
    .filter(([path]) => within(path, name))
    .flatMap(([, messages]) => messages);
}

/** What the control of a field gets: its id, and when the last submit was refused for it, that it is invalid. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * A form field: its label, the control (`children` gets the props that tie it to them), a hint, and the
 * problems the service found with it (a 422's `details` for `name`), which mark the control `aria-invalid` and
 * are read with it (`aria-describedby`). `inline` puts the label and control in a row of filters.
 */
export function Field({
  label,
  name,
  hint,
  error,
  className,
  children,
}: {
  label: string;
  /** The field's path in a 422's `details` (`hostname`, `scopes`). */
  name?: string;
  hint?: ReactNode;
  /** The error to read problems from; by default the one of the enclosing `Form`. */
  error?: unknown;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const form = useContext(FormContext);
  if (name && form) form.fields.set(name, { id, label });
  const problems = fieldErrors(error ?? form?.error, name);
  const described = [problems.length ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(problems.length ? { 'aria-invalid': true } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {problems.length ? (
        <p id={`${id}-error`} className="field-error">
          {label} {problems.join('; ')}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="small muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** What a text field or a select takes besides its control's own attributes. */
interface FieldProps {
  label: string;
  name?: string;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
}

/** A `Field` holding a text input (any `type` an input takes as text: search, url, number, date…). */
export function TextField({
  label,
  name,
  hint,
  value,
  onChange,
  ...input
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id' | 'name'>) {
  return (
    <Field label={label} name={name} hint={hint}>
      {(control) => (
        <input {...input} {...control} name={name} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

/** An option of a `SelectField`. */
export interface Option {
  value: string;
  label: string;
  disabled?: boolean;
}

/** The options of a select. */
export function Options({ options }: { options: readonly Option[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value} disabled={o.disabled}>
      {o.label}
    </option>
  ));
}

/** A `Field` holding a select of `options`. */
export function SelectField({
  label,
  name,
  hint,
  value,
  onChange,
  options,
  ...select
}: FieldProps & { options: readonly Option[] } & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    'value' | 'onChange' | 'id' | 'name'
  >) {
  return (
    <Field label={label} name={name} hint={hint}>
      {(control) => (
        <select {...select} {...control} value={value} onChange={(e) => onChange(e.target.value)}>
          <Options options={options} />
        </select>
      )}
    </Field>
  );
}

/**
 * A form: its fields, the error of the last submit (each problem of a 422 under the label of its field, and at
 * that field), and its actions: Cancel when `onCancel` is given, more `actions`, and the submit button, which
 * says `pendingLabel` while the submit runs. `layout="dialog"` lays it out as the body of a dialog.
 */
export function Form({
  mutation,
  onSubmit = () => mutation?.mutate(),
  error = mutation?.error,
  errorTitle,
  pending = mutation?.isPending ?? false,
  submitLabel,
  pendingLabel = 'Saving…',
  submitDisabled = false,
  onCancel,
  actions,
  layout = 'page',
  className,
  labelledBy,
  children,
}: {
  /** What submitting runs (`useMutation` without arguments): its error and its pending state are the form's. */
  mutation?: { mutate: () => void; error: unknown; isPending: boolean };
  onSubmit?: () => void;
  error?: unknown;
  errorTitle: string;
  pending?: boolean;
  submitLabel: string;
  pendingLabel?: string;
  submitDisabled?: boolean;
  onCancel?: () => void;
  actions?: ReactNode;
  layout?: 'page' | 'dialog' | 'inline';
  className?: string;
  labelledBy?: string;
  children: ReactNode;
}) {
  const fields = useRef(new Map<string, { id: string; label: string }>());
  const submit = (
    <button type="submit" className="primary" disabled={pending || submitDisabled}>
      {pending ? pendingLabel : submitLabel}
    </button>
  );
  return (
    <FormContext.Provider value={{ error, fields: fields.current }}>
      <form
        className={[layout === 'dialog' ? 'dialog-body' : null, className].filter(Boolean).join(' ') || undefined}
        aria-labelledby={labelledBy}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {layout === 'inline' ? (
          <div className="filters">
            {children}
            {submit}
          </div>
        ) : (
          children
        )}
        <FormError title={errorTitle} />
        {layout === 'inline' ? null : (
          <div className={layout === 'dialog' ? 'dialog-actions' : 'form-actions'}>
            {layout === 'dialog' && onCancel ? (
              <button type="button" onClick={onCancel}>
                Cancel
              </button>
            ) : null}
            {layout === 'dialog' ? actions : null}
            {submit}
            {layout === 'dialog' ? null : actions}
          </div>
        )}
      </form>
    </FormContext.Provider>
  );
}

/** The form's error, its problems named by the labels of the fields they belong to. */
function FormError({ title }: { title: string }) {
  const form = useContext(FormContext);
  if (!form) return null;
  const labelOf = (path: string) => {
    for (const [name, field] of form.fields) if (within(path, name)) return field;
    return null;
  };
  return <ErrorNotice error={form.error} title={title} fieldOf={labelOf} />;
}

/** A checkbox (or a radio button) with its label after it, and a hint under the label. */
export function Choice({
  type = 'checkbox',
  name,
  checked,
  onChange,
  disabled = false,
  inline = false,
  hint,
  children,
}: {
  type?: 'checkbox' | 'radio';
  /** The group of a radio button. */
  name?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Side by side with others (a list of scopes), not one a line. */
  inline?: boolean;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <label className={inline ? 'choice inline' : 'choice'}>
      <input
        type={type}
        name={name}
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      {hint ? (
        <span>
          {children}
          <span className="small muted block">{hint}</span>
        </span>
      ) : (
        children
      )}
    </label>
  );
}

/**
 * A group of choices (checkboxes, radio buttons) under a legend, with a hint and the service's problems with
 * it (a 422's `details` for `name`), read with the group.
 */
export function FieldGroup({
  legend,
  name,
  hint,
  className,
  children,
}: {
  legend: string;
  name?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  const form = useContext(FormContext);
  if (name && form) form.fields.set(name, { id, label: legend });
  const problems = fieldErrors(form?.error, name);
  const described = [problems.length ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <fieldset id={id} className={className} aria-describedby={described || undefined}>
      <legend>{legend}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="small muted">
          {hint}
        </p>
      ) : null}
      {children}
      {problems.length ? (
        <p id={`${id}-error`} className="field-error">
          {problems.join('; ')}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A choice of a `Checkboxes` or `Radios` group. */
export interface ChoiceOption<V> {
  value: V;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}

/** What a group of choices shares: its legend, name (a 422's path), hint and layout. */
interface GroupProps<V> {
  legend: string;
  name: string;
  hint?: ReactNode;
  options: readonly ChoiceOption<V>[];
  /** Side by side, not one a line. */
  inline?: boolean;
}

/** A group of checkboxes (`value` is what is ticked) or of radio buttons (`value` is the one chosen). */
function ChoiceGroup<V extends string | number>({
  legend,
  name,
  hint,
  options,
  inline = false,
  checked,
  onChoose,
  type,
}: GroupProps<V> & { type: 'checkbox' | 'radio'; checked: (v: V) => boolean; onChoose: (v: V, on: boolean) => void }) {
  return (
    <FieldGroup legend={legend} name={name} hint={hint} className={inline ? 'checks' : undefined}>
      {options.map((o) => (
        <Choice
          key={o.value}
          type={type}
          name={type === 'radio' ? name : undefined}
          inline={inline}
          hint={o.hint}
          disabled={o.disabled}
          checked={checked(o.value)}
          onChange={(on) => onChoose(o.value, on)}
        >
          {o.label}
        </Choice>
      ))}
    </FieldGroup>
  );
}

/** A group of checkboxes: `value` is what is ticked. */
export function Checkboxes<V extends string>({
  value,
  onChange,
  ...group
}: GroupProps<V> & { value: readonly V[]; onChange: (value: V[]) => void }) {
  return (
    <ChoiceGroup
      {...group}
      type="checkbox"
      checked={(v) => value.includes(v)}
      onChoose={(v, on) => onChange(on ? [...value, v] : value.filter((x) => x !== v))}
    />
  );
}

/** A group of radio buttons: `value` is the one chosen. */
export function Radios<V extends string | number>({
  value,
  onChange,
  ...group
}: GroupProps<V> & { value: V; onChange: (value: V) => void }) {
  return <ChoiceGroup {...group} type="radio" checked={(v) => v === value} onChoose={(v) => onChange(v)} />;
}
