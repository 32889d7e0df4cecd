// A modal confirmation on the native <dialog> (focus is trapped and Escape cancels by the browser).
import { useEffect, useRef, type ReactNode } from 'react';
import { Button, ui } from './ui.js';
import css from './ConfirmDialog.module.css';

export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel }: { title: string; children: ReactNode; confirmLabel: string; onConfirm(): void; onCancel(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal?.();
    return () => d?.close?.();
  }, []);
  return (
    <dialog ref={ref} className={css.dialog} aria-labelledby="confirm-title" onCancel={(e) => (e.preventDefault(), onCancel())} role="alertdialog" data-testid="confirm-dialog">
      <h2 id="confirm-title" className={ui.subheading}>
        {title}
      </h2>
      <div className={ui.stack}>{children}</div>
      <div className={css.actions}>
        <Button onClick={onCancel} autoFocus>
          Keep it
        </Button>
        <Button variant="primary" className={css.danger} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
