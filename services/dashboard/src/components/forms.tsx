/** Labelled form controls (every control has a <label>; hints tied by aria-describedby) and forms. */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import type { ApiError } from '../api/client';
import { ErrorMessage } from './data';

let fieldCounter = 0;
export function useId(prefix: string): string {
  const ref = useRef<string | undefined>(undefined);
  if (!ref.current) ref.current = `${prefix}-${(fieldCounter += 1)}`;
  return ref.current;
}

interface InputProps {
  label: string;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'search' | 'url' | 'number' | 'date';
  placeholder?: string;
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email';
  pattern?: string;
  minLength?: number;
  min?: number;
  autoFocus?: boolean;
}

export function Field({ label, hint, value, onValue, ...rest }: InputProps) {
  const id = useId('campo');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} value={value} onInput={(event) => onValue((event.currentTarget as HTMLInputElement).value)} aria-describedby={hint ? `${id}-dica` : undefined} {...(rest as object)} />
      {hint ? (
        <small id={`${id}-dica`} class="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function TextArea({ label, value, onValue, hint, required }: { label: string; value: string; onValue: (value: string) => void; hint?: string; required?: boolean }) {
  const id = useId('texto');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} value={value} required={required} rows={4} onInput={(event) => onValue((event.currentTarget as HTMLTextAreaElement).value)} aria-describedby={hint ? `${id}-dica` : undefined} />
      {hint ? (
        <small id={`${id}-dica`} class="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function Select({ label, value, onValue, options, hint }: { label: string; value: string; onValue: (value: string) => void; options: Array<[string, string]>; hint?: string }) {
  const id = useId('opcao');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onValue((event.currentTarget as HTMLSelectElement).value)}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
      {hint ? <small class="muted">{hint}</small> : null}
    </div>
  );
}

export function Checkbox({ label, checked, onChecked, hint }: { label: string; checked: boolean; onChecked: (checked: boolean) => void; hint?: string }) {
  const id = useId('marcar');
  return (
    <div class="field field-check">
      <input type="checkbox" id={id} checked={checked} onChange={(event) => onChecked((event.currentTarget as HTMLInputElement).checked)} />
      <label for={id}>{label}</label>
      {hint ? <small class="muted">{hint}</small> : null}
    </div>
  );
}

export function Form({ onSubmit, children, error, busy, submitLabel, label }: { onSubmit: () => void; children: ComponentChildren; error?: ApiError; busy?: boolean; submitLabel: string; label: string }) {
  return (
    <form
      class="form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <ErrorMessage error={error} />
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>
          {busy ? 'Aguarde…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

/** "Carregar mais" for lists paged with starting_after. */
