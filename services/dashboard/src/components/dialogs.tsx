/** Secrets shown once (with a copy button) and confirmations in a native modal <dialog>. */
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useId } from './forms';

export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone?: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = useId('segredo');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div class="secret" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong> — copie agora: ele não será mostrado de novo.
      </p>
      <div class="secret-row">
        <input id={id} class="mono" readOnly value={secret} aria-label={label} onFocus={(event) => (event.currentTarget as HTMLInputElement).select()} />
        <button type="button" class="button" onClick={copy}>
          {copied ? 'Copiado!' : 'Copiar'}
        </button>
        {onDone ? (
          <button type="button" class="button button-ghost" onClick={onDone}>
            Já copiei
          </button>
        ) : null}
      </div>
      <span class="visually-hidden" aria-live="polite">
        {copied ? 'Copiado para a área de transferência' : ''}
      </span>
    </div>
  );
}

/** A button that asks in a modal dialog before acting (revocations, refunds…). */
export function ConfirmButton({ label, title, message, confirmLabel, onConfirm, danger = true, disabled }: { label: string; title: string; message: ComponentChildren; confirmLabel: string; onConfirm: () => Promise<unknown> | void; danger?: boolean; disabled?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId('confirmar');
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      dialog.current?.close();
    }
  };
  return (
    <>
      <button type="button" class={`button button-small ${danger ? 'button-danger' : ''}`} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} class="dialog">
        <h2 id={titleId}>{title}</h2>
        <div>{message}</div>
        <div class="dialog-actions">
          <button type="button" class="button button-ghost" onClick={() => dialog.current?.close()}>
            Cancelar
          </button>
          <button type="button" class={`button ${danger ? 'button-danger' : ''}`} disabled={busy} onClick={confirm}>
            {busy ? 'Aguarde…' : confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** A form whose submit runs `onSubmit` (no page reload), with its error shown above the buttons. */
